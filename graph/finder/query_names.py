"""The names a query may contain (pure): "Omas Geburtstag" names Oma, "cat food" names "the cat", "Lunas
Futter" and "Luna's food" name Luna. The name list matches these forms exactly against names and aliases
(agent_search_entities), so a name inside a longer query is found in German as in English, without a model.

A form is a run of up to MAX_WORDS query words that neither ends with a function word nor starts with one
other than an article or possessive determiner; a last word with a possessive ending (English 's or ',
German genitive s) also stands without it; each form also stands after an article or possessive
determiner, since owners name things "the cat", "der Nachbar", "mein Sohn".
"""

from __future__ import annotations

import re

MAX_WORDS = 3
MAX_FORMS = 400  # a long message gives many forms; the statement compares against an array of them
LEADS = ("the", "my", "our", "der", "die", "das", "mein", "meine", "unser", "unsere")
FUNCTION_WORDS = frozenset(LEADS) | {
    "a", "an", "and", "at", "do", "does", "for", "how", "i", "in", "is", "of", "on", "to", "we", "what", "when",
    "where", "who", "with", "am", "auf", "ein", "eine", "für", "ich", "im", "mit", "und", "von", "vom", "wann",
    "was", "wer", "wie", "wir", "wo", "zum", "zur",
}
_WORD = re.compile(r"[^\w'’-]+")
_POSSESSIVE = ("'s", "’s", "'", "’")


def words(text: str) -> list[str]:
    return [w for w in _WORD.split(text.lower()) if w.strip("'’-")]


def name_forms(text: str) -> list[str]:
    """Every lower-case form a name or alias inside `text` could have, first seen first, at most MAX_FORMS."""
    ws = words(text)
    forms: dict[str, None] = {}
    for n in range(1, MAX_WORDS + 1):
        for i in range(len(ws) - n + 1):
            gram = ws[i:i + n]
            if gram[-1] in FUNCTION_WORDS or (gram[0] in FUNCTION_WORDS and gram[0] not in LEADS):
                continue  # "in the", "holiday in": no name ends so; "the garden", "Haus am See" stay
            for form in _without_possessive(gram):
                forms[form] = None
                if gram[0] not in LEADS:
                    forms.update((f"{lead} {form}", None) for lead in LEADS)
    return list(forms)[:MAX_FORMS]


def _without_possessive(gram: list[str]) -> list[str]:
    """The words as typed, and without a possessive ending of the last one ("luna's", "omas" -> also "oma")."""
    last, head = gram[-1], gram[:-1]
    for ending in _POSSESSIVE:
        if last.endswith(ending) and len(last) > len(ending) + 1:
            return [" ".join(gram), " ".join([*head, last[:-len(ending)]])]
    if last.endswith("s") and len(last) > 3 and last.isalpha():
        return [" ".join(gram), " ".join([*head, last[:-1]])]
    return [" ".join(gram)]
