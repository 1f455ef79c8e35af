"""Where a GraphQL operation's reads may go, and the WAL position its commits reached (graph/platform/standby.py).

Only with standbys configured (WORLDMEM_READ_DATABASE_URL): a query's reads may go to a standby, a mutation's
never (its reads decide its writes). The client's `Worldmem-Read-After: <LSN>` header names a commit its reads
must see (from another process, say); an operation that committed answers with `Worldmem-Commit-LSN: <LSN>`,
which a client sends back as Worldmem-Read-After (client/http.py does). Run by the operation's extension
(resolvers.operation_guard) around the operation's execution.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from graphql import GraphQLError
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from graph.errors import BadInput
from graph.platform.standby import CommitNote, commit_note, lsn_text, may_lag, parse_lsn, read_after
from resolvers.context import Context

READ_AFTER = "worldmem-read-after"
COMMIT_LSN = "Worldmem-Commit-LSN"


def _is_query(ec: ExecutionContext) -> bool:
    try:
        return ec.operation_type == OperationType.QUERY
    except (RuntimeError, GraphQLError):  # no such operation: Strawberry refuses it itself
        return False


def _client_lsn(ctx: Context) -> int:
    header = ctx.request.headers.get(READ_AFTER) if ctx.request is not None else None
    if not header:
        return 0
    try:
        return parse_lsn(header)
    except BadInput as exc:
        raise BadInput(f"the {READ_AFTER} header must be a commit's {COMMIT_LSN} (e.g. 0/16B3748)") from exc


def operation_reads(ec: ExecutionContext) -> AbstractContextManager[None]:
    """The standby rules of a Strawberry operation (resolvers.operation_guard)."""
    ctx = ec.context
    if not isinstance(ctx, Context) or ctx.database.standbys is None:
        return nullcontext()  # without asking the operation's type (which parses the document's operation)
    return _standby_reads(ctx, _is_query(ec))


def reads(ctx: Context, *, query: bool) -> AbstractContextManager[None]:
    """The operation's standby rules set for its execution, and its last commit's LSN put in the answer; the
    one place both execution paths (the schema's extension, resolvers.compiled) take them from. Without
    standbys nothing to set: a plain nullcontext, since every request (the floor too) passes here."""
    if ctx.database.standbys is None:
        return nullcontext()
    return _standby_reads(ctx, query)


@contextmanager
def _standby_reads(ctx: Context, query: bool) -> Iterator[None]:
    note = CommitNote()
    tokens = (may_lag.set(query), read_after.set(_client_lsn(ctx)), commit_note.set(note))
    try:
        yield
    finally:
        commit_note.reset(tokens[2])
        read_after.reset(tokens[1])
        may_lag.reset(tokens[0])
        if note.lsn and ctx.response is not None:
            ctx.response.headers[COMMIT_LSN] = lsn_text(note.lsn)
