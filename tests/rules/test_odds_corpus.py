"""The odds corpus (tests/data/odds_corpus.json, written by
packaging/make_attack_corpus.py): for every recorded set-up whose defender faces the
attacker, ``Attacks.preview_attack`` gives the recorded summary, the same modifiers
with their citations, and the same odds lines with the same exact fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.rules.corpora import REGENERATE, corpus_script

SCRIPT = corpus_script()
CORPUS = SCRIPT.read_document(SCRIPT.ODDS_CORPUS)
MAX_FRACTION_TEXT = 60  # characters: every recorded probability is far shorter


@pytest.mark.parametrize("group", SCRIPT.group_names(CORPUS))
def test_every_preview_gives_the_recorded_odds(group: str) -> None:
    for number, (case, entry) in enumerate(SCRIPT.recorded_cases(CORPUS, group)):
        recorded = SCRIPT.recorded_odds(CORPUS, entry)
        now = SCRIPT.odds_of(case)
        assert now == recorded, f"case {number} ({case.describe()}): {REGENERATE}"


def test_the_odds_are_those_of_the_attack_corpus_cases_facing_the_attacker() -> None:
    attacks = SCRIPT.read_document(SCRIPT.ATTACK_CORPUS)
    assert SCRIPT.group_names(CORPUS) == SCRIPT.group_names(attacks)
    for group in SCRIPT.group_names(CORPUS):
        facing = [c for c, _ in SCRIPT.recorded_cases(attacks, group) if SCRIPT.faces_attacker(c)]
        assert [c for c, _ in SCRIPT.recorded_cases(CORPUS, group)] == facing, group


def test_every_recorded_preview_is_whole() -> None:
    """The corpus holds odds, not refusals: each case's lines sum to exactly 1."""
    for group in SCRIPT.group_names(CORPUS):
        for number, (_, entry) in enumerate(SCRIPT.recorded_cases(CORPUS, group)):
            odds = SCRIPT.recorded_odds(CORPUS, entry)
            assert not odds.refused, (group, number)
            texts = [probability for _, probability in odds.lines]
            assert all(len(text) <= MAX_FRACTION_TEXT for text in texts), (group, number)
            assert sum(Fraction(text) for text in texts) == 1, (group, number)
