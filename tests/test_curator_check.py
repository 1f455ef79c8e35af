"""`worldmem curator check` and curator.check against the local fake OpenAI server: every failure shape
gets its own kind and says, in English and German, which setting to change."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from curator.check import CheckResult, check
from graph.platform.db import Database
from graph.settings import Settings
from tests.fake_openai import ALL_MODES, FakeOpenAI, Refusal, serve

ROOT = str(Path(__file__).resolve().parents[1])
LOCAL = {"curator_model": None, "curator_model_name": "llama3.1", "curator_output_mode": "auto",
         "curator_check_timeout_s": 5.0}


def local(settings: Settings, url: str, **extra: object) -> Settings:
    return settings.model_copy(update={**LOCAL, "curator_base_url": url, **extra})


def run_check(configured: Settings) -> CheckResult:
    return asyncio.run(check(configured))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_working_model_is_ok(settings: Settings) -> None:
    with serve(FakeOpenAI()) as fake:
        result = run_check(local(settings, fake.url))
    assert result.ok and result.mode == "tool" and result.fix == {}
    assert "llama3.1" in (result.model or "") and len(fake.requests) == 1


def test_no_model_configured(settings: Settings) -> None:
    result = run_check(settings.model_copy(update={**LOCAL, "curator_base_url": None}))
    assert result.kind == "not_configured"
    assert "WORLDMEM_CURATOR_BASE_URL=http://HOST:PORT/v1" in result.fix["en"]
    assert "WORLDMEM_CURATOR_MODEL_NAME (Standard llama3.1)" in result.fix["de"]


def test_a_hosted_model_without_its_key_is_unusable(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = run_check(settings.model_copy(update={**LOCAL, "curator_base_url": None,
                                                   "curator_model": "openai:gpt-4o-mini"}))
    assert result.kind == "unusable" and "OPENAI_API_KEY" in result.problem["en"]
    assert "OPENAI_API_KEY" in result.fix["en"] and "Schlüssel" in result.fix["de"]


def test_a_refused_key(settings: Settings) -> None:
    with serve(FakeOpenAI(status=401)) as fake:
        result = run_check(local(settings, fake.url, curator_api_key="sk-wrong"))
    assert result.kind == "auth" and "WORLDMEM_CURATOR_API_KEY" in result.fix["en"]
    assert "abgelehnt" in result.problem["de"] and "sk-wrong" not in result.model_dump_json()


KEY = "sk-proj-Zq8Tx3Vb6Nm1Lk4Jh7Gf0Ds2Ap5Ow9Ie"


@pytest.mark.parametrize("status", [401, 403, 500])
def test_no_provider_body_reaches_what_the_owner_reads(settings: Settings, status: int) -> None:
    """curatorStatus shows the check's problem to agent tokens: a provider's body quoting the server's key
    (as OpenAI's 401 does) must not reach it, whatever class the exception has."""
    body = {"error": {"message": f"Incorrect API key provided: {KEY}", "type": "invalid_request_error"}}
    with serve(FakeOpenAI(answers=[Refusal(status, body)] * 3)) as fake:
        result = run_check(local(settings, fake.url, curator_output_mode="tool"))
    assert not result.ok and KEY not in result.model_dump_json(), result
    assert result.kind == ("auth" if status in (401, 403) else result.kind)


def test_a_base_url_without_v1_is_a_wrong_path(settings: Settings) -> None:
    with serve(FakeOpenAI()) as fake:
        result = run_check(local(settings, fake.url.removesuffix("/v1")))
    assert result.kind == "wrong_path" and "/v1" in result.fix["en"] and "/v1" in result.fix["de"]


def test_an_unknown_model_name(settings: Settings) -> None:
    with serve(FakeOpenAI(status=404)) as fake:
        result = run_check(local(settings, fake.url, curator_model_name="llama9"))
    assert result.kind == "model_missing" and "llama9" in result.problem["en"]
    assert "WORLDMEM_CURATOR_MODEL_NAME (now 'llama9')" in result.fix["en"] and "ollama pull" in result.fix["de"]


def test_an_unreachable_server(settings: Settings) -> None:
    result = run_check(local(settings, f"http://127.0.0.1:{free_port()}/v1"))
    assert result.kind == "unreachable" and "WORLDMEM_CURATOR_BASE_URL" in result.fix["en"]
    assert "nicht erreichbar" in result.problem["de"]


def test_a_model_without_structured_output(settings: Settings) -> None:
    with serve(FakeOpenAI(prose=ALL_MODES)) as fake:
        result = run_check(local(settings, fake.url, curator_model_name="prose"))
    assert result.kind == "no_structured_output" and "WORLDMEM_CURATOR_OUTPUT_MODE" in result.fix["en"]
    assert "tried tool, native, prompted" in result.problem["en"]
    assert fake.modes_seen == ["tool", "native", "prompted"]  # one call a mode: the agent itself never retries


def test_a_model_that_ignores_tools_but_follows_a_prompted_schema(settings: Settings) -> None:
    """Tool calls come back as prose; JSON asked for in the prompt comes back as JSON: auto finds it."""
    with serve(FakeOpenAI(prose=frozenset({"tool", "native"}))) as fake:
        result = run_check(local(settings, fake.url, curator_model_name="ignores-tools"))
    assert result.ok and result.mode == "prompted"
    assert fake.modes_seen == ["tool", "native", "prompted"]


def test_a_slow_model(settings: Settings) -> None:
    with serve(FakeOpenAI(delays={1: 3.0})) as fake:
        result = run_check(local(settings, fake.url, curator_check_timeout_s=0.5))
    assert result.kind == "slow" and "WORLDMEM_CURATOR_TIMEOUT_S" in result.fix["en"]
    assert "0.5 s" in result.problem["en"]


def worldmem(*args: str, **env: str) -> tuple[int, str]:
    """The installed command in its own process, with only the given curator settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("WORLDMEM_CURATOR")}
    done = subprocess.run([sys.executable, "-m", "cli.main", *args], env={**clean, "PYTHONPATH": ROOT, **env},
                          capture_output=True, text=True, timeout=120, check=False)
    return done.returncode, done.stdout + done.stderr


def test_the_command_prints_the_failure_in_both_languages() -> None:
    with serve(FakeOpenAI()) as fake:
        failed_rc, failed = worldmem("curator", "check", WORLDMEM_CURATOR_BASE_URL=fake.url.removesuffix("/v1"))
        passed_rc, passed = worldmem("curator", "check", "--language", "de", WORLDMEM_CURATOR_BASE_URL=fake.url)
    assert failed_rc == 1 and failed.startswith("FAILED (wrong_path)") and "[en] What to change" in failed
    assert "[de] Was zu ändern ist" in failed and "Traceback" not in failed
    assert passed_rc == 0 and passed.startswith("ok: openai:llama3.1 answered") and "strukturiert" in passed


def test_the_worker_reports_its_check_on_start(settings: Settings, db: Database,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from cli.worker import _check
    from curator.extract import build_model
    from curator.pipeline import Curator

    with serve(FakeOpenAI(status=401)) as fake:
        configured = local(settings, fake.url, curator_model_name="worker-check")
        model = build_model(configured)
        assert model is not None
        asyncio.run(_check(configured, Curator(db, configured, model)))
    said = capsys.readouterr().err
    assert "curator model check: FAILED (auth)" in said and "WORLDMEM_CURATOR_API_KEY" in said
    assert "curator runs fail until this is fixed" in said
