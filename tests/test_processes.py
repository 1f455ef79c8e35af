"""Two `worldmem serve` processes on one database, as behind a load balancer, with a client that alternates
between them (docs/operations/processes.md): a write through one is read through the other at once, a revoked
token is refused by both within the token cache's TTL, a subscriber on one hears a commit through the other,
turns recorded through either are curated once (one model call per batch), and only one process sweeps for
the finder, until it is killed and the other takes over.

Real processes (bench.http_server.serve: the command users run) on this run's test database, inline
curator (no Temporal) against the local fake OpenAI server.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from bench.http_server import serve_many
from graph.ledger.tokens import revoke_token
from graph.platform.db import Database
from graph.sql import load
from tests.conftest import TEST_DB
from tests.curator_llm import by_turns, entity, fact
from tests.fake_openai import FakeOpenAI
from tests.fake_openai import serve as serve_fake
from tests.gql import MakeToken, codes, make_token  # noqa: F401
from tests.test_socket_revocation import SUBSCRIBE, heard, subscribed

TTL_S = 1.0
MARGIN_S = 1.0  # the refusing request itself, on a loaded machine
SWEEP_S = 0.5
WRITE = """mutation($run: String!, $ref: String!, $name: String!) { commitProposal(proposal: {runId: $run,
  operations: [{upsertEntity: {ref: $ref, kind: "pet", canonicalName: $name}}]}) { committed } }"""
READ = "query($ref: String!) { stateAt(ref: $ref) { name } }"
ERASE = 'mutation($ref: String!) { eraseEntity(ref: $ref, reason: "test") { id } }'
REMEMBER = "mutation($c: String!, $t: String!) { rememberThis(chatId: $c, text: $t) { seq } }"
SAID = {"Rex frisst immer um 7": [entity("pet:rex", "Rex"),
                                  fact("pet:rex", "feeding_time", "07:00", quote="Rex frisst immer um 7")],
        "Luna frisst um 19 Uhr": [entity("pet:luna", "Luna"),
                                  fact("pet:luna", "feeding_time", "19:00", quote="Luna frisst um 19 Uhr")]}


@dataclass
class Pair:
    ports: list[int]
    pids: list[int]
    fake: FakeOpenAI

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i % 2]}/graphql"


@pytest.fixture(scope="module")
def pair(test_db_url: str) -> Iterator[Pair]:
    answers: list[Any] = [by_turns(SAID) for _ in range(200)]
    with serve_fake(FakeOpenAI(answers=answers)) as fake, ExitStack() as stack:
        env = {"WORLDMEM_TOKEN_CACHE_S": str(TTL_S), "WORLDMEM_FINDER_SWEEP_S": str(SWEEP_S),
               "WORLDMEM_EMBEDDING_PROVIDER": "none", "WORLDMEM_ACCESS_LOG": "false", "WORLDMEM_TEMPORAL_ADDRESS": "",
               "WORLDMEM_CURATOR_BASE_URL": fake.url, "WORLDMEM_CURATOR_MODEL_NAME": "fake",
               "WORLDMEM_CURATOR_CHECK_ON_START": "false", "WORLDMEM_CURATOR_DEBOUNCE_S": "0.2",
               "WORLDMEM_CURATOR_CATCHUP_S": "1"}  # both catch-ups see every lagging chat each second
        started = stack.enter_context(serve_many(TEST_DB, 2, env))
        yield Pair([port for _, port in started], [proc.pid for proc, _ in started], fake)


def ask(http: httpx.Client, url: str, token: str, query: str, variables: dict[str, Any]) -> httpx.Response:
    return http.post(url, json={"query": query, "variables": variables}, headers={"Authorization": f"Bearer {token}"})


def test_a_write_through_one_process_is_read_through_the_other_at_once(pair: Pair,
                                                                       make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    seen = []
    with httpx.Client(timeout=30) as http:
        for i in range(100):
            ref = f"pet:p{i}"
            wrote = ask(http, pair.url(i), token, WRITE, {"run": f"w{i}", "ref": ref, "name": f"P{i}"}).json()
            assert wrote["data"]["commitProposal"]["committed"] == 1, wrote
            read = ask(http, pair.url(i + 1), token, READ, {"ref": ref}).json()
            seen.append((read.get("data") or {}).get("stateAt"))
    assert seen == [{"name": f"P{i}"} for i in range(100)]


def test_a_revoked_token_is_refused_by_both_within_the_ttl(pair: Pair, make_token: MakeToken,  # noqa: F811
                                                           test_db_url: str) -> None:
    token = make_token()
    with httpx.Client(timeout=30) as http:

        def answer(i: int) -> list[str]:
            return codes(ask(http, pair.url(i), token, "{ entityKinds { key } }", {}).json())

        assert [answer(i) for i in range(2)] == [[], []]  # both processes have just verified the token
        assert revoke_token(test_db_url, token)
        revoked_at = time.monotonic()
        refused: dict[int, float] = {}
        while len(refused) < 2 and time.monotonic() - revoked_at < TTL_S + 3:
            for i in set(range(2)) - set(refused):
                if answer(i) == ["UNAUTHENTICATED"]:
                    refused[i] = time.monotonic() - revoked_at
            time.sleep(0.05)
        after = [answer(i) for i in range(4)]
    assert sorted(refused) == [0, 1] and max(refused.values()) < TTL_S + MARGIN_S, refused
    assert after == [["UNAUTHENTICATED"]] * 4


def test_a_subscriber_on_one_process_hears_a_commit_through_the_other(pair: Pair,
                                                                      make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()

    async def run() -> list[dict[str, Any]]:
        sockets = [await subscribed(f"127.0.0.1:{port}", token) for port in pair.ports]
        await asyncio.sleep(0.5)  # each hub's LISTEN is in place before the commits
        heard_by: list[dict[str, Any]] = []
        async with httpx.AsyncClient(timeout=30) as http:
            for i in range(2):  # through process i; the subscriber on the other one must hear it
                response = await http.post(pair.url(i), headers={"Authorization": f"Bearer {token}"},
                                           json={"query": WRITE, "variables": {"run": f"s{i}", "ref": f"pet:s{i}",
                                                                               "name": "S"}})
                assert response.json()["data"]["commitProposal"]["committed"] == 1, response.text
                for ws in (sockets[1 - i], sockets[i]):
                    heard_by.append(await heard(ws, 10))
        for ws in sockets:
            await ws.close()
        return heard_by

    messages = asyncio.run(run())
    assert [m["type"] for m in messages] == ["next"] * 4, messages
    assert [m["id"] for m in messages] == [SUBSCRIBE["id"]] * 4
    assert [m["payload"]["data"]["memoryCommitted"]["committed"] for m in messages] == [1] * 4


def test_turns_through_both_processes_are_curated_once(pair: Pair, make_token: MakeToken,  # noqa: F811
                                                       db: Database, owner: str) -> None:
    """Each chat gets an explicit turn through each process at the same moment: both processes start a run
    for it at once (and both catch-ups see it). One model call per batch, each turn in one committed run."""
    token = make_token()
    chats = [f"c{i}" for i in range(4)]
    before = len(pair.fake.requests)

    def remember(job: tuple[int, str, str]) -> int:
        i, chat, text = job
        with httpx.Client(timeout=30) as http:
            body = ask(http, pair.url(i), token, REMEMBER, {"c": chat, "t": text}).json()
        seq: int = body["data"]["rememberThis"]["seq"]
        return seq

    jobs = [(i, chat, text) for chat in chats for i, text in enumerate(SAID)]
    with ThreadPoolExecutor(len(jobs)) as pool:
        assert sorted(pool.map(remember, jobs)) == sorted([1, 2] * len(chats))
    deadline = time.monotonic() + 15
    while not all(covered(runs(db, owner, chat)) for chat in chats):
        assert time.monotonic() < deadline, {chat: runs(db, owner, chat) for chat in chats}
        time.sleep(0.2)
    time.sleep(2.5)  # a second run of the same turns, were there one, would come within a retry or catch-up
    every = [r for chat in chats for r in runs(db, owner, chat)]
    assert all(r["status"] == "committed" for r in every), every
    assert all(covered(runs(db, owner, chat)) for chat in chats)
    assert len(pair.fake.requests) - before == len(every), (len(pair.fake.requests) - before, every)


def runs(db: Database, owner: str, chat: str) -> list[dict[str, Any]]:
    with db.owner_tx(owner, read_only=True) as conn:
        return [dict(r) for r in conn.execute(load("curator_runs_for_chat"), {"chat_id": chat, "limit": 100})]


def covered(chat_runs: list[dict[str, Any]]) -> bool:
    """Whether the committed runs hold turns 1 and 2 each exactly once."""
    seqs = [s for r in chat_runs if r["status"] == "committed" for s in range(r["from_seq"], r["upto_seq"] + 1)]
    return sorted(seqs) == [1, 2]


def counted(port: int, metric: str) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    found = re.search(rf"^{metric}_total (\S+)$", text, re.MULTILINE)
    assert found is not None, text[:500]
    return float(found.group(1))


def sweeps(port: int) -> float:
    return counted(port, "worldmem_finder_sweeps")


def test_an_erasure_through_one_process_empties_the_others_remembered_texts(pair: Pair,
                                                                            make_token: MakeToken) -> None:  # noqa: F811
    """Query vectors and GraphQL documents may spell out an erased name; each process keeps its own, so each
    must forget them, whichever process the erasure went through."""
    token = make_token()
    with httpx.Client(timeout=30) as http:
        wrote = ask(http, pair.url(0), token, WRITE, {"run": "e1", "ref": "pet:gone", "name": "Gone"}).json()
        assert wrote["data"]["commitProposal"]["committed"] == 1, wrote
        before = [counted(port, "worldmem_erasure_forgets") for port in pair.ports]
        erased = ask(http, pair.url(0), token, ERASE, {"ref": "pet:gone"}).json()
        assert erased["data"]["eraseEntity"]["id"], erased
        deadline = time.monotonic() + 5
        while counted(pair.ports[1], "worldmem_erasure_forgets") == before[1]:
            assert time.monotonic() < deadline, "the other process never heard of the erasure"
            time.sleep(0.05)
    assert counted(pair.ports[0], "worldmem_erasure_forgets") > before[0]


def test_one_process_sweeps_and_a_killed_leader_hands_over(pair: Pair) -> None:
    """Last in this file: it kills a process of the module's pair."""
    time.sleep(SWEEP_S * 4)
    first = [sweeps(port) for port in pair.ports]
    time.sleep(SWEEP_S * 4)
    second = [sweeps(port) for port in pair.ports]
    grew = [b - a for a, b in zip(first, second, strict=True)]
    leader = 0 if grew[0] > 0 else 1
    assert grew[leader] > 0 and second[1 - leader] == 0, (first, second)
    os.kill(pair.pids[leader], signal.SIGKILL)
    standby = pair.ports[1 - leader]
    deadline = time.monotonic() + 10
    while sweeps(standby) == 0:
        assert time.monotonic() < deadline, "the standby never took over the sweep"
        time.sleep(0.2)
