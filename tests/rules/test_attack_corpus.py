"""The attack corpus (tests/data/attack_corpus.json, written by
packaging/make_attack_corpus.py): every recorded attack between two demo fighters,
made again through ``Battle.execute`` on the recorded seeds, tells the same events
with the same citations, leaves the same combatants and items, and rolls the same
faces. A difference is named by its case and field, with what the case now does."""

from __future__ import annotations

import dataclasses

import pytest

from tests.rules.corpora import REGENERATE, corpus_script

SCRIPT = corpus_script()
CORPUS = SCRIPT.read_document(SCRIPT.ATTACK_CORPUS)


def first_difference(now: tuple[str, ...], recorded: object) -> str | None:
    """The first field of ``FIELDS`` whose digest differs, or None."""
    assert isinstance(recorded, list) and len(recorded) == len(SCRIPT.FIELDS)
    for field, mine, theirs in zip(SCRIPT.FIELDS, now, recorded, strict=True):
        if mine != theirs:
            return str(field)
    return None


def report(number: int, case: object, field: str) -> str:
    column = SCRIPT.FIELDS.index(field)
    seed, attack, texts = next(SCRIPT.outcome_texts(case))
    return (
        f"case {number} ({case.describe()}): its {field} differ from the corpus's digest "
        f"over the seeds {SCRIPT.SEEDS}. At seed {seed}, attack {attack}, they now read:\n"
        f"{texts[column]}\n{REGENERATE}"
    )


@pytest.mark.parametrize("group", SCRIPT.group_names(CORPUS))
def test_every_attack_ends_as_recorded(group: str) -> None:
    for number, (case, entry) in enumerate(SCRIPT.recorded_cases(CORPUS, group)):
        field = first_difference(SCRIPT.outcome_digest(case), entry["digest"])
        if field is not None:
            pytest.fail(report(number, case, field))


def test_the_corpus_holds_every_ruleset_and_option_on_its_demo() -> None:
    assert SCRIPT.group_names(CORPUS) == [group.name for group in SCRIPT.groups()]
    assert (CORPUS["seeds"], CORPUS["fields"]) == (list(SCRIPT.SEEDS), list(SCRIPT.FIELDS))
    for group in SCRIPT.group_names(CORPUS):
        setups = {case.setup for case, _ in SCRIPT.recorded_cases(CORPUS, group)}
        assert {s.facing for s in setups} == set(SCRIPT.FACINGS), group
        assert any(s.attacks == 2 for s in setups), group


def test_a_changed_field_is_named() -> None:
    case, entry = next(SCRIPT.recorded_cases(CORPUS, "demo-000"))
    now = SCRIPT.outcome_digest(case)
    assert first_difference(now, entry["digest"]) is None
    tampered = list(entry["digest"])
    tampered[SCRIPT.FIELDS.index("items")] = "00000000"
    assert first_difference(now, tampered) == "items"
    message = report(0, case, "events")
    assert message.startswith("case 0 (demo-000: c1 attacks c2 at 1 hex(es)")
    assert "its events differ from the corpus's digest over the seeds" in message
    assert "At seed 0, attack 1, they now read" in message
    moved = dataclasses.replace(case, setup=dataclasses.replace(case.setup, distance=2))
    assert first_difference(SCRIPT.outcome_digest(moved), entry["digest"]) is not None
