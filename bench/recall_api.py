"""The recall evaluation's calls, through GraphQL as an agent makes them: importConversation, registerRelationTypes,
commitProposal and searchWorldMemory, on an in-process app (FastAPI's TestClient) with an owner token.

`missing()` reads this checkout's schema first, so a run on a branch without the recall API stops with a message
before it creates a database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient
from graphql import GraphQLInputObjectType, GraphQLNamedType, build_schema, get_named_type

from bench.recall_data import Fact, Question, Turn, fact_key, turn_key
from bench.recall_scoring import Ranked
from resolvers.schema import export_sdl

IMPORT = """mutation($c: String!, $t: [ImportTurnInput!]!) {
  importConversation(chatId: $c, turns: $t, curate: false) { __typename } }"""
REGISTER = "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }"
COMMIT = """mutation($p: ProposalInput!) {
  commitProposal(proposal: $p) { committed pending rejected { opIndex code message } } }"""
HIT = "score foundBy matched fact { subject fact { predicate value } }"
EPISODE = " episode { chatId externalId occurredAt speaker role text }"
IMPORT_BATCH = 10_000


@dataclass(frozen=True)
class Capabilities:
    """What this checkout's schema offers the evaluation; `valid_time` is the type of searchWorldMemory's
    validTime argument (None: absent) and `valid_time_fields` its input fields when it is a window."""

    import_conversation: bool
    episodes: bool
    valid_time: str | None
    valid_time_fields: tuple[str, ...]

    def missing(self) -> list[str]:
        return [name for name, ok in (("Mutation.importConversation", self.import_conversation),
                                      ("SearchHit.episode", self.episodes)) if not ok]


def capabilities(sdl: str | None = None) -> Capabilities:
    schema = build_schema(sdl or export_sdl())
    mutation, query, hit = schema.mutation_type, schema.query_type, schema.type_map.get("SearchHit")
    search = query.fields["searchWorldMemory"] if query else None
    arg = search.args.get("validTime") if search else None
    named: GraphQLNamedType | None = get_named_type(arg.type) if arg else None
    fields = tuple(named.fields) if isinstance(named, GraphQLInputObjectType) else ()
    return Capabilities(
        import_conversation=bool(mutation and "importConversation" in mutation.fields),
        episodes=bool(hit is not None and "episode" in getattr(hit, "fields", {})),
        valid_time=named.name if named else None, valid_time_fields=fields)


class Api:
    def __init__(self, client: TestClient, token: str, caps: Capabilities) -> None:
        self.client, self.caps = client, caps
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = self.client.post("/graphql", json={"query": query, "variables": variables},
                                                headers=self.headers).json()
        if body.get("errors"):
            raise RuntimeError(f"GraphQL error: {body['errors'][:2]}")
        data: dict[str, Any] = body["data"]
        return data

    def import_chat(self, chat_id: str, turns: Sequence[Turn]) -> None:
        rows = [{"externalId": t.external_id, "role": t.role, "speaker": t.speaker, "text": t.text,
                 "occurredAt": t.occurred_at} for t in turns]
        for k in range(0, len(rows), IMPORT_BATCH):
            self.call(IMPORT, {"c": chat_id, "t": rows[k:k + IMPORT_BATCH]})

    def register(self, predicates: Sequence[str]) -> None:
        """Each predicate the facts use, as a functional literal; one already registered is left as it is."""
        for key in predicates:
            body = self.client.post("/graphql", headers=self.headers, json={"query": REGISTER, "variables": {
                "t": [{"key": key, "name": key.replace("_", " "), "cardinality": "FUNCTIONAL"}]}}).json()
            if body.get("errors") and "exist" not in str(body["errors"]).lower():
                raise RuntimeError(f"registerRelationTypes {key}: {body['errors'][:1]}")

    def commit_facts(self, run_id: str, facts: Sequence[Fact], said: dict[str, str]) -> int:
        ops: list[dict[str, Any]] = []
        for subject in dict.fromkeys(f.subject for f in facts):
            f = next(x for x in facts if x.subject == subject)
            ops.append({"upsertEntity": {"ref": f.subject, "kind": f.kind, "canonicalName": f.name,
                                         "aliases": list(f.aliases)}})
        for f in facts:
            ops.append({"assertFact": {
                "subject": f.subject, "predicate": f.predicate, "value": f.value, "validFrom": f.valid_from,
                "validTo": f.valid_to, "source": "user", "confidence": 1.0,
                "evidence": {"kind": "message", "text": said[f.evidence], "ref": f.evidence}}})
        result = self.call(COMMIT, {"p": {"runId": run_id, "operations": ops}})["commitProposal"]
        if result["rejected"]:
            raise RuntimeError(f"facts rejected: {result['rejected'][:3]}")
        return int(result["committed"])

    def search(self, q: Question, limit: int, *, with_window: bool, mode: str = "HYBRID") -> list[Ranked]:
        args, variables = "query: $q, limit: $l, mode: $m", {"q": q.query, "l": limit, "m": mode}
        decl = "$q: String!, $l: Int!, $m: SearchMode!"
        if with_window and q.window is not None and self.caps.valid_time:
            decl += f", $v: {self.caps.valid_time}"
            args += ", validTime: $v"
            variables["v"] = self._window(q)
        fields = HIT + (EPISODE if self.caps.episodes else "")
        data = self.call(f"query({decl}) {{ searchWorldMemory({args}) {{ mode hits {{ {fields} }} }} }}", variables)
        return [ranked(h) for h in data["searchWorldMemory"]["hits"]]

    def _window(self, q: Question) -> Any:
        assert q.window is not None
        fields = self.caps.valid_time_fields
        if not fields:  # a point in time
            return q.window.at
        start = next(f for f in fields if f in ("from", "start", "after"))
        end = next(f for f in fields if f in ("to", "end", "before"))
        return {start: q.window.start, end: q.window.end}


def ranked(hit: dict[str, Any]) -> Ranked:
    keys: set[str] = set()
    lists = set(hit.get("foundBy") or [])
    if hit.get("episode"):
        keys.add(turn_key(hit["episode"]["externalId"]))
        lists.add("kind:episode")
    if hit.get("fact"):
        f = hit["fact"]
        keys.add(fact_key(f["subject"], f["fact"]["predicate"], f["fact"]["value"]))
        lists.add("kind:fact")
    return Ranked(frozenset(keys), frozenset(lists))
