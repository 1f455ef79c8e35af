"""graph.agent.when: every shape of time expression, German and English, with its window, labels and the rest."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from graph.agent.when import Window, find_window

NOW = datetime(2026, 12, 6, 15, 30, tzinfo=UTC)  # a Sunday


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


def found(text: str, now: datetime = NOW) -> Window:
    w = find_window(text, now)
    assert w is not None, text
    return w


@pytest.mark.parametrize(("text", "start", "end", "rest"), [
    ("Who led project Aurora in 2025?", day(2025, 1, 1), day(2026, 1, 1), "Who led project Aurora?"),
    ("Wer leitete Aurora im Jahr 2025?", day(2025, 1, 1), day(2026, 1, 1), "Wer leitete Aurora?"),
    ("What happened in the year 2024?", day(2024, 1, 1), day(2025, 1, 1), "What happened?"),
    ("Rechnungen aus dem Jahr 2023", day(2023, 1, 1), day(2024, 1, 1), "Rechnungen"),
    ("during 2019, where did I live", day(2019, 1, 1), day(2020, 1, 1), "where did I live"),
    ("In welchem Fitnessstudio war ich 2025?", day(2025, 1, 1), day(2026, 1, 1), "In welchem Fitnessstudio war ich?"),
    ("Who led Aurora 2024?", day(2024, 1, 1), day(2025, 1, 1), "Who led Aurora?"),
])
def test_years(text: str, start: datetime, end: datetime, rest: str) -> None:
    w = found(text)
    assert (w.start, w.end, w.query) == (start, end, rest)
    assert w.label_de == w.label_en == str(start.year)


@pytest.mark.parametrize(("text", "start", "de", "en", "rest"), [
    ("Was hat Luna letzten März gefressen?", day(2026, 3, 1), "März 2026", "March 2026", "Was hat Luna gefressen?"),
    ("What did Luna eat last March?", day(2026, 3, 1), "März 2026", "March 2026", "What did Luna eat?"),
    ("Was war im vergangenen Oktober?", day(2026, 10, 1), "Oktober 2026", "October 2026", "Was war?"),
    ("Wo war ich im Mai 2024?", day(2024, 5, 1), "Mai 2024", "May 2024", "Wo war ich?"),
    ("Where was I in May 2024?", day(2024, 5, 1), "Mai 2024", "May 2024", "Where was I?"),
    ("Where was I in May?", day(2026, 5, 1), "Mai 2026", "May 2026", "Where was I?"),
    ("Was war im Dezember?", day(2026, 12, 1), "Dezember 2026", "December 2026", "Was war?"),
    ("invoices from March of 2025", day(2025, 3, 1), "März 2025", "March 2025", "invoices"),
])
def test_months(text: str, start: datetime, de: str, en: str, rest: str) -> None:
    w = found(text)
    end = day(start.year + (start.month == 12), start.month % 12 + 1, 1)
    assert (w.start, w.end, w.label_de, w.label_en, w.query) == (start, end, de, en, rest)


def test_last_month_of_the_current_month_or_later_is_last_year() -> None:
    in_march = datetime(2026, 3, 20, tzinfo=UTC)
    assert found("letzten März", in_march).start == day(2025, 3, 1)
    assert found("last March", in_march).start == day(2025, 3, 1)
    assert found("last April", in_march).start == day(2025, 4, 1)
    assert found("last February", in_march).start == day(2026, 2, 1)


def test_a_month_without_year_is_the_latest_that_has_begun() -> None:
    in_april = datetime(2026, 4, 2, tzinfo=UTC)
    assert found("im April", in_april).start == day(2026, 4, 1)
    assert found("im Mai", in_april).start == day(2025, 5, 1)
    assert found("in March", in_april).start == day(2026, 3, 1)


@pytest.mark.parametrize(("text", "start", "end", "de", "en"), [
    ("letztes Jahr", day(2025, 1, 1), day(2026, 1, 1), "2025", "2025"),
    ("last year", day(2025, 1, 1), day(2026, 1, 1), "2025", "2025"),
    ("dieses Jahr", day(2026, 1, 1), day(2027, 1, 1), "2026", "2026"),
    ("vorigen Monat", day(2026, 11, 1), day(2026, 12, 1), "November 2026", "November 2026"),
    ("letzten Monat", day(2026, 11, 1), day(2026, 12, 1), "November 2026", "November 2026"),
    ("last month", day(2026, 11, 1), day(2026, 12, 1), "November 2026", "November 2026"),
    ("this month", day(2026, 12, 1), day(2027, 1, 1), "Dezember 2026", "December 2026"),
    ("gestern", day(2026, 12, 5), day(2026, 12, 6), "5. Dezember 2026", "5 December 2026"),
    ("yesterday", day(2026, 12, 5), day(2026, 12, 6), "5. Dezember 2026", "5 December 2026"),
    ("vorgestern", day(2026, 12, 4), day(2026, 12, 5), "4. Dezember 2026", "4 December 2026"),
    ("heute", day(2026, 12, 6), day(2026, 12, 7), "6. Dezember 2026", "6 December 2026"),
    ("letzte Woche", day(2026, 11, 23), day(2026, 11, 30), "Woche ab 23. November 2026", "week of 23 November 2026"),
    ("last week", day(2026, 11, 23), day(2026, 11, 30), "Woche ab 23. November 2026", "week of 23 November 2026"),
    ("diese Woche", day(2026, 11, 30), day(2026, 12, 7), "Woche ab 30. November 2026", "week of 30 November 2026"),
])
def test_relative(text: str, start: datetime, end: datetime, de: str, en: str) -> None:
    w = found(f"Was war {text} los?")
    assert (w.start, w.end, w.label_de, w.label_en) == (start, end, de, en)
    assert w.matched.lower() == text.lower()
    assert w.query == "Was war los?"


@pytest.mark.parametrize(("text", "start"), [
    ("Was habe ich letzten Dienstag gegessen?", day(2026, 12, 1)),
    ("What did I eat last Tuesday?", day(2026, 12, 1)),
    ("am vergangenen Samstag", day(2026, 12, 5)),
    ("last Sunday", day(2026, 11, 29)),  # NOW is a Sunday: the one before
    ("on last Monday", day(2026, 11, 30)),
])
def test_last_weekday(text: str, start: datetime) -> None:
    w = found(text)
    assert (w.start, w.end) == (start, start + timedelta(days=1))
    assert w.label_en == f"{start.day} {w.label_en.split(' ', 1)[1]}"


def test_last_month_in_january_is_december_of_last_year() -> None:
    assert found("last month", datetime(2026, 1, 10, tzinfo=UTC)).start == day(2025, 12, 1)


@pytest.mark.parametrize(("text", "start", "rest"), [
    ("Was war am 3. Mai mit der Heizung los?", day(2026, 5, 3), "Was war mit der Heizung los?"),
    ("What did we discuss on May 3rd?", day(2026, 5, 3), "What did we discuss?"),
    ("What did we discuss on May 3rd, 2025?", day(2025, 5, 3), "What did we discuss?"),
    ("the 3rd of May 2025 meeting", day(2025, 5, 3), "meeting"),
    ("notes from 3 May 2025", day(2025, 5, 3), "notes from"),
    ("Termin am 3.5.2025", day(2025, 5, 3), "Termin"),
    ("Termin am 3.5.25", day(2025, 5, 3), "Termin"),
    ("Termin am 03.05.", day(2026, 5, 3), "Termin"),
    ("log of 2025-05-03", day(2025, 5, 3), "log of"),
    ("Was war am 24. Dez.?", day(2025, 12, 24), "Was war?"),
    ("on Sept 5 what happened", day(2026, 9, 5), "what happened"),
])
def test_dates(text: str, start: datetime, rest: str) -> None:
    w = found(text)
    assert (w.start, w.end, w.query) == (start, start + timedelta(days=1), rest)
    assert w.label_de == f"{start.day}. {w.label_de.split(' ', 1)[1]}"
    assert w.label_en.startswith(f"{start.day} ")


def test_date_labels() -> None:
    w = found("am 3. Mai 2025")
    assert (w.label_de, w.label_en, w.label("de"), w.label("en")) == ("3. Mai 2025", "3 May 2025", "3. Mai 2025",
                                                                       "3 May 2025")


def test_a_day_later_this_year_is_last_year() -> None:
    assert found("am 24. Dezember").start == day(2025, 12, 24)
    assert found("on December 6").start == day(2026, 12, 6)


@pytest.mark.parametrize("text", [
    "The budget is $175", "Treffen in Raum 2025", "Kostet 2025 Euro", "Who leads project Aurora?",
    "Was isst Luna?", "May I ask what my diet is?", "version 1.2.3 released", "Luna wiegt 3,8 Kilo",
    "ein Wert von 3.5", "IP 192.168.1.10", "am 31.4.2025", "on February 30", "the 2025 roadmap", "",
    "Sprint 12 review at 10:30", "Wir treffen uns in Raum 2025.", "Which gate, Gate 2030?", "It cost $2025?",
    "Ticket Nr. 2024?", "Was kostet es, 2025 Euro?",
])
def test_no_time(text: str) -> None:
    assert find_window(text, NOW) is None


def test_the_longest_expression_wins() -> None:
    w = found("Wer war im Mai 2024 Teamleiter?")
    assert (w.matched, w.start) == ("im Mai 2024", day(2024, 5, 1))


def test_windows_are_in_the_time_zone_of_now() -> None:
    berlin = timezone(timedelta(hours=1))
    w = found("gestern", datetime(2026, 12, 6, 0, 30, tzinfo=berlin))
    assert (w.start, w.end) == (datetime(2026, 12, 5, tzinfo=berlin), datetime(2026, 12, 6, tzinfo=berlin))
