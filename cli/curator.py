"""`worldmem curator check`: one tiny structured call to the configured curator model, and what to change
when it fails (curator.check). Exit 0 when the model answers, 1 when it does not."""

from __future__ import annotations

import argparse
import asyncio
import json

from curator.check import CheckResult, check
from graph.settings import Settings

LANGUAGES = {"en": ("Problem", "What to change"), "de": ("Problem", "Was zu ändern ist")}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    curator = sub.add_parser("curator", help="the curator's model: check (one tiny structured call)")
    curator.add_argument("action", choices=["check"])
    curator.add_argument("--language", choices=["en", "de", "both"], default="both",
                         help="the language of the message (default: both)")
    curator.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace, settings: Settings) -> int:
    result = asyncio.run(check(settings))
    print(json.dumps(result.model_dump(), ensure_ascii=False, indent=2) if args.json else
          render(result, ["en", "de"] if args.language == "both" else [args.language]))
    return 0 if result.ok else 1


def render(result: CheckResult, languages: list[str]) -> str:
    if result.ok:
        head = f"ok: {result.model} answered in {result.seconds:.1f} s (output mode: {result.mode})"
        return "\n".join([head] + [f"  [{lang}] {result.problem[lang]}" for lang in languages])
    lines = [f"FAILED ({result.kind}): {result.model or 'no model'}"]
    for lang in languages:
        problem, fix = LANGUAGES[lang]
        lines.append(f"  [{lang}] {problem}: {result.problem[lang]}")
        if result.fix:
            lines.append(f"  [{lang}] {fix}: {result.fix[lang]}")
    return "\n".join(lines)
