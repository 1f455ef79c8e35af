"""searchWorldMemory (or worldContext) over HTTP, this checkout against another, alternating: for an owner
without episodes (is search any slower for them than before?) and for one with 100,000.

    python -m bench.recall_ab --baseline DIR [--runs 300] [--mode HYBRID|TEXT] [--read search|context]

On bench.recall_scale's kept database (`python -m bench.recall_scale --keep` first): one `worldmem serve` of
this checkout and one of DIR's code (its .venv), each query sent to both in a random order (the machine is
shared: runs minutes apart are not comparable, and the server that ran last is warm), every query new to
both servers' query-vector memory (a counter appended). p50 / p95 per server and owner. `--read context`
asks worldContext with the same ten messages as they are (the context builder embeds nothing).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import httpx

from bench.http_server import serve
from bench.recall_scale import OWNER_A, OWNER_B, QUERIES, new_text
from bench.recall_seed import NAME
from graph.ledger.tokens import create_token
from graph.platform.connect import admin_url
from graph.settings import get_settings

SEARCH = ("query($q: String!, $m: SearchMode!) { searchWorldMemory(query: $q, limit: 10, mode: $m) "
          "{ mode hits { score } } }")
CONTEXT = "query($m: String!) { worldContext(message: $m) { tokens } }"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.recall_ab", description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout with .venv")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--mode", default="HYBRID", choices=["HYBRID", "TEXT"])
    parser.add_argument("--read", default="search", choices=["search", "context"])
    args = parser.parse_args(argv)
    admin = admin_url(get_settings(), NAME)
    tokens = {owner: create_token(admin, owner) for owner in (OWNER_B, OWNER_A)}
    rng = random.Random(5)
    times: dict[tuple[str, str], list[float]] = {}
    with serve(NAME) as (_, this), serve(NAME, code_dir=args.baseline) as (_, base), httpx.Client(timeout=60) as client:
        sides = {"this": this, "baseline": base}
        for i in range(args.runs + 20):
            for owner, token in tokens.items():
                # search: a word that changes the query a little, so neither server remembers its embedding
                q = new_text(QUERIES[i % len(QUERIES)], i)
                asked = {"query": SEARCH, "variables": {"q": q, "m": args.mode}} if args.read == "search" else {
                    "query": CONTEXT, "variables": {"m": QUERIES[i % len(QUERIES)]}}
                for side in rng.sample(list(sides), len(sides)):
                    started = time.perf_counter()
                    body = client.post(f"http://127.0.0.1:{sides[side]}/graphql",
                                       headers={"Authorization": f"Bearer {token}"},
                                       json=asked).json()
                    took = (time.perf_counter() - started) * 1000
                    if body.get("errors"):
                        raise SystemExit(f"{side}: {body['errors'][:1]}")
                    if i >= 20:  # warm-up: plans, the model
                        times.setdefault((owner, side), []).append(took)
    what = f"searchWorldMemory, mode {args.mode}" if args.read == "search" else "worldContext"
    print(f"\n{what} over HTTP, {args.runs} queries per owner and server, alternating\n")
    print("| owner | server | p50 ms | p95 ms |\n|---|---|---:|---:|")
    for (owner, side), xs in times.items():
        print(f"| {owner} | {side} | {statistics.median(xs):.2f} | {statistics.quantiles(xs, n=20)[18]:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
