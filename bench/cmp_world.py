"""The comparison world of the read benchmarks, generated here: 10 owners x 1,000 entities x 5,000 relationship facts.

Deterministic (`random.Random(42)`); it makes the same random draws in the same order as the Graphiti side's
generator (the Graphiti comparison tool beside the project, not imported: this is our own code), so both systems
hold the same names, facts and valid times. `fingerprint()` hashes every generated field the same way the
Graphiti side does; `python -m bench.cmp_world` prints it (expected: FINGERPRINT) and the first query picks.

Mapping to worldmem: group gi is owner `cmp-gi`; node i is entity `<kind>:g<gi>-<i>` (person, organization
or place) named as generated, with its summary as a `description` fact; edge j is a relationship
`g_<rel>` (a set predicate) from subject to object, valid from `valid_at` to `invalid_at` (open when None,
20 % closed: Graphiti's "invalidated"), with the sentence as its evidence.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

FINGERPRINT = "ae0931e9"  # the first hex digits the Graphiti side prints for the same world
FIRST = ("alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy rupert sybil trent "
         "victor walter yvonne zara omar lena paulo quinn").split()
LAST = ("smith jones garcia miller davis lopez wilson anderson thomas taylor moore jackson martin lee perez "
        "thompson white harris sanchez clark ramirez lewis robinson walker young").split()
ORGS = ("acme globex initech umbrella hooli vandelay stark wayne wonka cyberdyne soylent tyrell aperture oscorp "
        "massive dynamics").split()
PLACES = ("paris berlin tokyo lagos lima oslo cairo delhi austin denver boston seattle madrid rome vienna prague "
          "dublin sydney toronto nairobi").split()
TOPICS = ("project budget contract hiring launch audit roadmap migration outage invoice partnership research "
          "design security compliance marketing sales support training travel").split()
RELS = [("WORKS_AT", "works at"), ("KNOWS", "knows"), ("MANAGES", "manages"), ("LIVES_IN", "lives in"),
        ("OWNS", "owns"), ("PARTNERS_WITH", "partners with"), ("REPORTS_TO", "reports to"),
        ("INVESTED_IN", "invested in"), ("MENTORS", "mentors"), ("CONTRACTED", "contracted")]
START = datetime(2023, 1, 1, tzinfo=UTC)
SPAN_DAYS = 730
T_PAST = datetime(2024, 1, 1, tzinfo=UTC)  # the "facts valid at T" question
KINDS = {"Person": "person", "Organization": "organization", "Location": "place"}


@dataclass(frozen=True)
class Entity:
    group: int
    index: int
    name: str
    label: str
    summary: str

    @property
    def ref(self) -> str:
        return f"{KINDS[self.label]}:g{self.group}-{self.index}"


@dataclass(frozen=True)
class Rel:
    group: int
    index: int
    subject: int
    object: int
    rel: str
    sentence: str
    valid_from: datetime
    valid_to: datetime | None

    @property
    def predicate(self) -> str:
        return "g_" + self.rel.lower()

    def holds(self, at: datetime | None = None) -> bool:
        """Valid at `at`; None: now (open-ended: not invalidated)."""
        if at is None:
            return self.valid_to is None
        return self.valid_from <= at and (self.valid_to is None or self.valid_to > at)


@dataclass
class Group:
    index: int
    entities: list[Entity]
    rels: list[Rel]


def _group(gi: int, rng: random.Random, n_entities: int = 1000, n_rels: int = 5000, n_episodes: int = 100,
           closed: float = 0.2) -> Group:
    entities = []
    for i in range(n_entities):
        draw = rng.random()
        if draw < 0.6:
            name, label = f"{rng.choice(FIRST)} {rng.choice(LAST)} {gi}-{i}", "Person"
        elif draw < 0.85:
            name, label = f"{rng.choice(ORGS)} {rng.choice(TOPICS)} corp {gi}-{i}", "Organization"
        else:
            name, label = f"{rng.choice(PLACES)} site {gi}-{i}", "Location"
        entities.append(Entity(gi, i, name, label, f"{name} is involved in {rng.choice(TOPICS)} and "
                                                   f"{rng.choice(TOPICS)}"))
    for _ in range(n_episodes):  # Graphiti's episodes: not loaded here, drawn to keep the sequence
        rng.choice(TOPICS)
        rng.uniform(0, SPAN_DAYS)
    rels = []
    for j in range(n_rels):
        s, t = rng.sample(range(n_entities), 2)
        rel, verb = rng.choice(RELS)
        topic, place = rng.choice(TOPICS), rng.choice(PLACES)
        sentence = f"{entities[s].name} {verb} {entities[t].name} regarding the {topic} in {place}"
        valid_from = START + timedelta(days=rng.uniform(0, SPAN_DAYS))
        valid_to = valid_from + timedelta(days=rng.uniform(1, 365)) if rng.random() < closed else None
        rels.append(Rel(gi, j, s, t, rel, sentence, valid_from, valid_to))
    for _ in range(n_episodes):  # the episodes' mentions, likewise
        rng.sample(range(n_entities), 5)
    return Group(gi, entities, rels)


def world(groups: int = 10) -> list[Group]:
    rng = random.Random(42)
    return [_group(gi, rng) for gi in range(groups)]


def picks(w: list[Group]) -> tuple[list[tuple[int, int]], list[tuple[int, str]]]:
    """The query inputs: 400 (group, entity index) and 400 (group, one or two keywords)."""
    rng = random.Random(7)
    chosen = []
    for _ in range(400):
        group = rng.choice(w)
        entity = rng.choice(group.entities)
        chosen.append((entity.group, entity.index))
    words = FIRST + LAST + ORGS + PLACES + TOPICS
    keywords = [(rng.choice(w).index, " ".join(rng.sample(words, rng.choice([1, 2])))) for _ in range(400)]
    return chosen, keywords


@dataclass(frozen=True)
class Truth:
    out_now: int  # outgoing relationships believed now (stateAt now)
    out_at_t: int  # outgoing relationships valid at T_PAST (stateAt T)
    both_now: int  # relationships in either direction now (getEntity)
    neighbours_now: int  # distinct entities one current hop away (neighbors depth 1)


def truth(w: list[Group], gi: int, i: int) -> Truth:
    mine = [r for r in w[gi].rels if i in (r.subject, r.object)]
    out = [r for r in mine if r.subject == i]
    return Truth(out_now=sum(r.holds() for r in out), out_at_t=sum(r.holds(T_PAST) for r in out),
                 both_now=sum(r.holds() for r in mine),
                 neighbours_now=len({r.object if r.subject == i else r.subject for r in mine if r.holds()}))


def fingerprint(w: list[Group]) -> str:
    h = hashlib.sha256()
    for g in w:
        for e in g.entities:
            h.update(f"{e.group}|{e.index}|{e.name}|{e.label}|{e.summary}\n".encode())
        for r in g.rels:
            end = r.valid_to.isoformat() if r.valid_to else None
            h.update(f"{r.group}|{r.index}|{r.subject}|{r.object}|{r.rel}|{r.sentence}|{r.valid_from.isoformat()}|"
                     f"{end}\n".encode())
    return h.hexdigest()


if __name__ == "__main__":
    generated = world()
    chosen, keywords = picks(generated)
    print(fingerprint(generated), sum(len(g.rels) for g in generated),
          sum(r.valid_to is not None for g in generated for r in g.rels), chosen[:3], keywords[:3])
