"""German spelling variants for matching names, and ASCII slugs for refs. Pure functions.

- Umlauts are also written ae/oe/ue and ß as ss ("Juergen" for "Jürgen", "Mueller" for "Müller"):
  `spellings` gives a name's other spellings, both ways.
- German marks the possessive with a bare -s ("Lunas Frühstück", "Sebastians Katze"): `possessive`
  gives the name without it. Callers try these only when the exact words name nothing, so an entity
  really called "Lukas" still wins over "Luka".
"""

from __future__ import annotations

import re
import unicodedata
from itertools import product

FOLD = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
FOLD_TABLE = str.maketrans(FOLD)  # one C pass (fold runs for every span of every message)
UNFOLD = {"ae": "ä", "oe": "ö", "ue": "ü"}
PAIR = re.compile("ae|oe|ue")
MAX_SPELLINGS = 8
MIN_POSSESSIVE = 4  # "Lunas" -> "Luna"; never "Ms" -> "M"


def fold(text: str) -> str:
    """ä ö ü ß written out as ae oe ue ss (lower case)."""
    return text.lower().translate(FOLD_TABLE)


def spellings(text: str) -> list[str]:
    """Other spellings of a lower-case name: umlauts written out, and ae/oe/ue read as umlauts (each
    pair either way, at most MAX_SPELLINGS). The text itself is not included."""
    out: list[str] = []
    folded = fold(text)
    if folded != text:
        out.append(folded)
    parts = PAIR.split(folded)
    pairs = PAIR.findall(folded)
    if pairs and len(pairs) <= 3:
        for choice in product((False, True), repeat=len(pairs)):
            built = parts[0] + "".join((UNFOLD[p] if c else p) + rest
                                       for p, c, rest in zip(pairs, choice, parts[1:], strict=True))
            if built != text and built not in out:
                out.append(built)
    return out[:MAX_SPELLINGS]


def possessive(text: str) -> str | None:
    """The name without a German possessive -s on its last word ("sebastians" -> "sebastian")."""
    last = text.rsplit(" ", 1)[-1]
    if len(last) >= MIN_POSSESSIVE and last.endswith("s") and not last.endswith("ss"):
        return text[:-1]
    return None


def variants(text: str) -> list[str]:
    """Every other form a lower-case name may stand for: spellings, the possessive's base and its spellings."""
    found = spellings(text)
    base = possessive(text)
    if base is not None:
        found += [base, *spellings(base)]
    return list(dict.fromkeys(v for v in found if v != text))


def ascii_slug(text: str) -> str:
    """A ref slug for a name: umlauts written out, other accents dropped, runs of other characters as '-'."""
    plain = unicodedata.normalize("NFKD", fold(text)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9_.#/@+\-]+", "-", plain).strip("-") or "x"
