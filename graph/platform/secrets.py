"""Passwords of the embedded cluster's roles, generated once and kept in the data dir (mode 600)."""

from __future__ import annotations

import hashlib
import json
import os
import secrets as _secrets
from dataclasses import asdict, dataclass

from graph.settings import Settings


@dataclass(frozen=True)
class Secrets:
    admin_password: str
    app_password: str
    console_password: str

    def fingerprint(self) -> str:
        return hashlib.sha256(self.admin_password.encode()).hexdigest()


def load_or_create_secrets(settings: Settings) -> Secrets:
    path = settings.secrets_file
    if path.exists():
        return Secrets(**json.loads(path.read_text()))
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    fresh = Secrets(*(_secrets.token_hex(24) for _ in range(3)))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(asdict(fresh), fh)
    return fresh
