"""The data of `bench.fresh_owner`: a scratch database and one owner's import of people.

Each person gets an entity, a description (a literal fact, found by search) and a `knows` relationship
(an edge, found by neighbours): two facts, three operations, packed into 500-operation proposals.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql

from graph.ledger.proposal import AssertFact, AssertRelationship, MemoryMutationProposal, UpsertEntity
from graph.platform.connect import admin_url, role_url
from graph.platform.migrate import migrate
from graph.settings import Settings

FIRST = ["Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hannes", "Ida", "Jonas", "Katrin",
         "Lukas", "Mia", "Noah", "Olga", "Paul", "Queenie", "Rafael", "Sofia", "Tim", "Ursula", "Viktor",
         "Wanda", "Xaver", "Yara", "Zoe", "Amir", "Bianca", "Cem", "Dora"]
LAST = ["Schmidt", "Meyer", "Weber", "Wagner", "Becker", "Schulz", "Hoffmann", "Koch", "Richter", "Klein",
        "Wolf", "Neumann", "Schwarz", "Zimmermann", "Braun", "Hofmann", "Hartmann", "Lange", "Schmitt",
        "Werner", "Krause", "Meier", "Lehmann", "Huber", "Mayer", "Herrmann", "Kaiser", "Fuchs", "Peters",
        "Lang", "Scholz", "Jung", "Keller", "Vogel", "Friedrich", "Roth", "Beck", "Lorenz", "Baumann",
        "Franke", "Albrecht", "Winter", "Ludwig", "Simon", "Kraus", "Schuster", "Vogt", "Jäger", "Otto",
        "Sommer", "Stein", "Groß", "Seidel", "Heinrich", "Brandt", "Haas", "Schreiber", "Graf", "Dietrich",
        "Ziegler", "Kuhn", "Kühn", "Pohl", "Engel", "Horn", "Busch", "Bergmann", "Thomas", "Voigt", "Sauer",
        "Arnold", "Wolff", "Pfeiffer", "Marx", "Fischer", "Weiß", "Schäfer", "Schröder", "Müller", "Lindner",
        "Ernst", "Haase", "Frank", "Martin", "Kramer", "Walter", "Böhm", "Kaufmann", "Hahn", "Schubert",
        "Berger", "Günther", "Schumacher", "Schulze", "Köhler", "Krüger", "Kurz", "Schneider", "Möller", "Koenig"]
JOBS = ["gardener", "baker", "nurse", "teacher", "plumber", "architect", "pilot", "chemist", "cook", "lawyer",
        "carpenter", "dentist", "farmer", "librarian", "painter", "pharmacist", "tailor", "translator"]
CITIES = ["Berlin", "Hamburg", "Leipzig", "Dresden", "Munich", "Cologne", "Bremen", "Kassel", "Freiburg",
          "Rostock", "Potsdam", "Erfurt", "Mainz", "Ulm", "Trier", "Jena"]
HOBBIES = ["chess", "rowing", "pottery", "climbing", "jazz", "birdwatching", "sailing", "baking bread",
           "old motorbikes", "orchids", "tango", "astronomy"]
OPS_PER_PROPOSAL = 500
PER_PERSON = 3  # upsert, description, knows


def name(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]}"


def ref(i: int) -> str:
    return f"person:p{i}"


def description(i: int) -> str:
    rng = random.Random(i)
    return f"{rng.choice(JOBS)} in {rng.choice(CITIES)}, loves {rng.choice(HOBBIES)}"


def people(n: int, run: str) -> list[MemoryMutationProposal]:
    """n people as 500-operation proposals; person i knows person i-1 (person 0 has an e-mail instead)."""
    since = datetime(2024, 1, 1, tzinfo=UTC)
    ops: list[Any] = []
    for i in range(n):
        ops += [UpsertEntity(ref=ref(i), kind="person", canonical_name=name(i)),
                AssertFact(subject=ref(i), predicate="description", value=description(i),
                           valid_from=since + timedelta(days=i % 700)),
                AssertRelationship(subject=ref(i), predicate="knows", object=ref(i - 1), valid_from=since) if i
                else AssertFact(subject=ref(i), predicate="email", value="p0@example.org", valid_from=since)]
    per = OPS_PER_PROPOSAL - OPS_PER_PROPOSAL % PER_PERSON
    return [MemoryMutationProposal(run_id=f"{run}-{k}", operations=ops[k:k + per])
            for k in range(0, len(ops), per)]


@contextmanager
def scratch(settings: Settings, keep: bool = False) -> Iterator[tuple[str, str]]:
    """A migrated database of its own, (admin url, app url); dropped at the end unless `keep`."""
    dbname = f"worldmem_fresh_{os.getpid()}"
    _drop(settings, dbname)
    admin = admin_url(settings, dbname)
    migrate(settings, admin)
    try:
        yield admin, role_url(settings, "app", dbname)
    finally:
        if not keep:
            _drop(settings, dbname)


def _drop(settings: Settings, dbname: str) -> None:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname)))
