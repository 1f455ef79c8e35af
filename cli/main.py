"""The `worldmem` command. Expected failures print one clear message and exit 2, never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import psycopg

from cli import cluster, console, curator, finder, intents, mcp, owner, retention, transfer, worker
from graph.errors import WorldmemError
from graph.platform import embedded, replica
from graph.platform.connect import admin_url, role_url
from graph.platform.databases import drop_database, extension_versions
from graph.platform.errors import PlatformError
from graph.platform.migrate import Migrated, applied, migrate_report
from graph.platform.reachable import require_reachable
from graph.settings import Settings, get_settings

Handler = Callable[[argparse.Namespace, Settings], int]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        COMMANDS[name] = fn
        return fn
    return register


@command("db")
def _db(args: argparse.Namespace, settings: Settings) -> int:
    if args.action == "url":
        print(role_url(settings, args.role))
        return 0
    if args.action == "replica":
        return _replica(args, settings)
    if args.action == "cluster":
        return cluster.run(args, settings)
    byo = settings.database_url is not None
    if args.action == "drop":
        if not args.name:
            raise PlatformError("which database?", "worldmem db drop NAME (a scratch database in the cluster)")
        existed = drop_database(settings, args.name, force=args.force)
        embedded.progress(f"database {args.name!r} {'dropped' if existed else 'did not exist'}")
        return 0
    if args.action == "up":
        if not byo:
            embedded.up(settings)
        done = migrate_report(settings)
        embedded.progress(f"database ready; migrations applied now: {done.versions or 'none (up to date)'}; "
                          f"function files applied: {done.functions or 'none'}")
        _report_removed(done)
    elif args.action == "down":
        if byo:
            embedded.progress("WORLDMEM_DATABASE_URL is set: nothing of ours to stop")
        else:
            embedded.stop(settings.root_dir)
    elif args.action == "status":
        info: dict[str, object] = {"mode": "external" if byo else "embedded"}
        if not byo:
            info.update(embedded.status(settings))
        try:
            info["migrations"] = applied(admin_url(settings))
        except PlatformError as exc:
            info["migrations"] = f"unavailable: {str(exc).splitlines()[0]}"
        print(json.dumps(info, indent=2))
    return 0


def _replica(args: argparse.Namespace, settings: Settings) -> int:
    """`worldmem db replica up|down|status [--port P]`: the embedded cluster's streaming standby."""
    standby = replica.standby_for(settings, args.port)
    if args.name == "up":
        print(replica.up(settings, standby))  # the URL for WORLDMEM_READ_DATABASE_URL, on stdout
        embedded.progress(f"standby {standby.name} streaming on port {standby.port}; reads go there with "
                          "WORLDMEM_READ_DATABASE_URL set to the URL above")
    elif args.name == "down":
        gone = replica.down(settings, standby)
        embedded.progress(f"standby {standby.name} " + ("stopped, its slot dropped, its copy removed" if gone
                                                         else "was not there"))
    elif args.name == "status":
        print(json.dumps(replica.status(settings, standby), indent=2))
    else:
        raise PlatformError("which replica action?", "worldmem db replica up|down|status [--port P]")
    return 0


@command("migrate")
def _migrate(args: argparse.Namespace, settings: Settings) -> int:
    done = migrate_report(settings)
    print(f"applied: {', '.join(done.versions) if done.versions else 'nothing (up to date)'}")
    print(f"function files applied: {', '.join(done.functions) if done.functions else 'none (unchanged)'}")
    _report_removed(done)
    return 0


def _report_removed(done: Migrated) -> None:
    for name in done.removed:
        embedded.progress(f"warning: graph/sql/functions/{name}.sql is gone but function {name} is still in the "
                          "database; drop it in a numbered migration")


@command("serve")
def _serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from resolvers.serving import APP_FACTORY, uvicorn_options

    require_reachable(role_url(settings, "app"))  # refuse to serve without a database
    # The app is built by each worker process from the same WORLDMEM_* settings (resolvers.serving).
    uvicorn.run(APP_FACTORY, **uvicorn_options(settings, args.host, args.port))
    return 0


@command("token")
def _token(args: argparse.Namespace, settings: Settings) -> int:
    from graph.ledger import tokens

    require_reachable(admin_url(settings))
    if args.action == "list":
        for t in tokens.list_tokens(admin_url(settings), args.owner):
            print(tokens.describe(t))
        return 0
    if args.action == "revoke":
        if not args.token:
            raise WorldmemError("name the token to revoke: worldmem token revoke ID (or the token itself)")
        if not tokens.revoke_token(admin_url(settings), args.token):
            raise WorldmemError("no live token with that id (or value): see `worldmem token list`")
        embedded.progress(f"revoked; requests with it are refused within {settings.token_cache_s:g} s "
                          "(servers trust a verified token that long: WORLDMEM_TOKEN_CACHE_S)")
        return 0
    if not args.owner:
        raise WorldmemError("token create needs --owner")
    token = tokens.create_token(admin_url(settings), args.owner, can_import=args.import_,
                                can_integrate=args.integration, kind=args.kind, name=args.name)
    rights = [r for r, on in (("import", args.import_), ("register vocabulary", args.integration)) if on]
    who = f"integration {args.name!r}" if args.kind == "integration" else args.kind
    embedded.progress(f"{who} token for owner {args.owner!r}"
                      f"{' (may ' + ', '.join(rights) + ')' if rights else ''}; "
                      "it is shown once and stored only as a hash")
    print(token)  # the last line of stdout: scripts take it from there
    return 0


@command("schema")
def _schema(args: argparse.Namespace, settings: Settings) -> int:
    from resolvers.schema import export_sdl

    sdl = export_sdl()
    if args.out:
        Path(args.out).write_text(sdl)
        embedded.progress(f"wrote {args.out}")
    else:
        sys.stdout.write(sdl)
    return 0


def _token_and_schema_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    token = sub.add_parser("token", help="API bearer tokens: create | list | revoke")
    token.add_argument("action", choices=["create", "list", "revoke"])
    token.add_argument("token", nargs="?", help="revoke: the token's id (from `list`) or the token itself")
    token.add_argument("--owner", help="the owner (subject) the token acts for; list: only this owner's")
    token.add_argument("--kind", choices=["owner", "agent", "integration"], default="owner",
                       help="owner (default): the person; agent: the chat agent or curator, whose derived "
                            "beliefs wait for review; integration: a feeder (needs --name)")
    token.add_argument("--name", help="the integration's name (a-z, 0-9, _); it writes as integration:NAME")
    token.add_argument("--import", dest="import_", action="store_true",
                       help="owner tokens: may pass an explicit system time (recordedAt)")
    token.add_argument("--integration", action="store_true",
                       help="owner tokens: may register entity kinds and relation types")
    schema = sub.add_parser("schema", help="the GraphQL schema: export SDL")
    schema.add_argument("action", choices=["export"])
    schema.add_argument("--out", help="write to this file (e.g. schema.graphql) instead of stdout")


@command("doctor")
def _doctor(args: argparse.Namespace, settings: Settings) -> int:
    from graph.age.doctor import check

    url = args.url or admin_url(settings)
    require_reachable(url)
    versions = extension_versions(url)
    package = embedded.package_version(settings.root_dir) if settings.database_url is None and not args.url else None
    print(f"AGE {versions.get('age', 'missing')}" + (f" (Debian package {package})" if package else "")
          + f", pgvector {versions.get('vector', 'missing')}")
    try:
        report = check(url)
    except psycopg.OperationalError as exc:
        raise PlatformError(f"cannot connect: {str(exc).strip().splitlines()[-1]}") from exc
    for name, count in report.counts.items():
        print(f"{name}: {count} in the ledger" if name != "console_functions" else
              f"console: {count} executable ag_catalog functions")
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    print("graph == ledger" if report.ok else f"graph != ledger ({len(report.problems)} problems)")
    return 0 if report.ok else 1


@command("demo")
def _demo(args: argparse.Namespace, settings: Settings) -> int:
    from graph.demo import load_demo
    from graph.finder.embedders import embedder_for
    from graph.finder.reconciler import reconcile_owner
    from graph.platform.db import Database

    url = role_url(settings, "app")
    require_reachable(url)
    database = Database(url, max_size=1)
    try:
        report = load_demo(database, args.owner)
        # searchable now: the server's finder would only sweep these commits minutes later
        found = reconcile_owner(database, args.owner, embedder_for(settings))
    finally:
        database.close()
    embedded.progress(f"demo world of owner {args.owner!r}: loaded {', '.join(report.committed) or 'nothing new'}"
                      f"{'; already there: ' + ', '.join(report.skipped) if report.skipped else ''}")
    embedded.progress(f"finder: {found.projected} texts projected, {found.embedded} embedded"
                      f"{f', {found.failed} failed (the server retries them)' if found.failed else ''}")
    embedded.progress(f"a token to explore it: worldmem token create --owner {args.owner}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="worldmem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    db = sub.add_parser("db", help="the database: up | down | status | url | drop NAME | replica up|down|status "
                                   "| cluster up|down|status NAME")
    db.add_argument("action", choices=["up", "down", "status", "url", "drop", "replica", "cluster"],
                    help="down stops the whole cluster (every database in it); drop NAME drops one database; "
                         "replica up|down|status: a streaming standby of the embedded cluster; "
                         "cluster up NAME --port P starts another cluster in the embedded root")
    db.add_argument("name", nargs="?", help="for `drop`: the database to drop; for `replica` and `cluster`: "
                                            "up, down or status")
    db.add_argument("cluster", nargs="?", help="for `cluster`: the cluster's name")
    db.add_argument("--port", type=int, help="for `replica`: the standby's port (default: WORLDMEM_REPLICA_PORT, "
                                             "else the cluster's port + 10); for `cluster up`: the cluster's port")
    db.add_argument("--force", action="store_true", help="for `drop`: also the configured WORLDMEM_DB_NAME")
    db.add_argument("--role", choices=["app", "admin"], default="app", help="for `url`")
    sub.add_parser("migrate", help="apply pending migrations")
    serve = sub.add_parser("serve", help="serve GraphQL at /graphql")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    doctor = sub.add_parser("doctor", help="check that the graph mirror equals the ledger")
    doctor.add_argument("--url", help="admin URL of the database (default: the configured one)")
    demo = sub.add_parser("demo", help="load the demo world (Basti, Luna, home-agent, #42); idempotent")
    demo.add_argument("--owner", default="demo", help="the owner to load it for (default: demo)")
    for extend in EXTENSIONS:
        extend(sub)
    return parser


EXTENSIONS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = [
    _token_and_schema_parsers,
]


# Commands with a module of their own, registered here explicitly (never by an import's side effect).
COMMANDS["cypher"] = console.run
COMMANDS["intents"] = intents.run
COMMANDS["finder"] = finder.run
COMMANDS["worker"] = worker.run
COMMANDS["mcp"] = mcp.run
COMMANDS["retention"] = retention.run
COMMANDS["curator"] = curator.run
COMMANDS["owner"] = owner.run
COMMANDS["export"] = transfer.run_export
COMMANDS["import"] = transfer.run_import
EXTENSIONS += [console.add_parser, intents.add_parser, worker.add_parser, mcp.add_parser, finder.add_parser,
               retention.add_parser, curator.add_parser, owner.add_parser, transfer.add_parser]


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args, get_settings())
    except (PlatformError, WorldmemError) as exc:
        print(f"worldmem: {exc}", file=sys.stderr)
        return 2
    except psycopg.Error as exc:
        print(f"worldmem: database error: {str(exc).strip().splitlines()[0]}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
