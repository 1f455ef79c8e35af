"""Contact identities: `namespace:value` strings (`email:anna@example.org`, `phone:+4917012345`,
`matrix:@anna:example.org`) normalised to the one spelling stored as an alias in that namespace.

Pure functions. A phone number keeps only digits and a leading + (00 becomes +); a number without a
country code stays national (we do not guess the country). E-mail addresses, Matrix ids and other handles
compare case-insensitively (aliases are matched on their lower-case form anyway) and are stored lower-case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.errors import BadInput

NAMESPACE = re.compile(r"^[a-z][a-z0-9_]{1,30}$")
# Namespaces the store itself uses for aliases: never a contact identity.
RESERVED = frozenset({"core", "chat", "name"})
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MATRIX = re.compile(r"^@[^:\s]+:[^\s]+$")
PHONE_NOISE = re.compile(r"[\s\-()/.]")
PHONE = re.compile(r"^\+?[0-9]{3,20}$")
HANDLE = re.compile(r"^[^\s]{1,200}$")
MAX_VALUE = 254


@dataclass(frozen=True, order=True)
class Identity:
    namespace: str
    value: str

    def __str__(self) -> str:
        return f"{self.namespace}:{self.value}"


def _bad(text: str, why: str) -> BadInput:
    return BadInput(f"identity {text[:80]!r} {why}", code="BAD_IDENTITY")


def normalise_value(namespace: str, raw: str, text: str = "") -> str:
    """The stored spelling of one value in `namespace` (BAD_IDENTITY when it is not one)."""
    value = raw.strip()
    if namespace == "email":
        value = value.removeprefix("mailto:").lower()
        if not EMAIL.match(value):
            raise _bad(text or raw, "is not an e-mail address (name@domain)")
    elif namespace == "phone":
        value = PHONE_NOISE.sub("", value.removeprefix("tel:"))
        value = "+" + value[2:] if value.startswith("00") else value
        if not PHONE.match(value):
            raise _bad(text or raw, "is not a phone number (digits, optionally +country code)")
    elif namespace == "matrix":
        value = value.lower() if value.startswith("@") else "@" + value.lower()
        if not MATRIX.match(value):
            raise _bad(text or raw, "is not a Matrix id (@user:server)")
    else:
        value = value.lower().removeprefix("@")
        if not HANDLE.match(value):
            raise _bad(text or raw, "is not a handle (no spaces)")
    if len(value) > MAX_VALUE:
        raise _bad(text or raw, f"is longer than {MAX_VALUE} characters")
    return value


def parse(text: str) -> Identity:
    """`namespace:value` -> Identity with the normalised value."""
    namespace, sep, raw = text.strip().partition(":")
    namespace = namespace.lower()
    if not sep or not raw.strip():
        raise _bad(text, "is not namespace:value (e.g. email:anna@example.org)")
    if not NAMESPACE.match(namespace) or namespace in RESERVED:
        raise _bad(text, "needs a namespace of 2-31 lower-case letters, digits or _ (not core, chat or name)")
    return Identity(namespace, normalise_value(namespace, raw, text))


def parse_all(texts: list[str]) -> list[Identity]:
    """Each identity once, in a stable order."""
    return sorted({parse(t) for t in texts})


def is_identity_namespace(namespace: str) -> bool:
    return bool(NAMESPACE.match(namespace)) and namespace not in RESERVED
