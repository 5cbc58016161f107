"""The defender's answer, asked of its controller: a computer defender chooses its
own answer to an attack from the ruleset's answers (``Attacks.answers``: its
defenses, the likeliest first) by their exact odds.

Each answer is weighed by the attack's exact odds against it
(``rules.battle.attack_odds``, through the policies' ``OddsCache``, so that the
odds the attacker weighed of the defender's likeliest answer are not worked out
again): the chance to be struck, the expected injury and the chance to be taken
out of the fight. The answer that does the least harm is taken; a careful
fighter weighs being taken out three times as much.

What an answer costs later is not weighed: the outcome tells what broke or left
a hand (``AttackOutcome.broken``, ``pieces``), but the odds count only the
injury and the fighters taken out, and a second enumeration per answer would
double the time; a ruleset's own bookkeeping (a second parry's penalty in the
same turn) is in the state after the attack, which the odds never see.

The reason reads as the GM would say it: "Fencer (careful) parries with the
rapier: 5% to be hit instead of 62% (dodge)". Nothing here names a ruleset: an
answer's words come from its own fields (``answer_words``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import Any, cast

from rules.battle.attack_choices import DefenderAnswer
from rules.battle.attack_steps import AttackSteps, planned
from rules.battle.commands import Attack
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Combatant
from rules.battle.state import BattleState, Command
from rules.core.errors import RulesError
from rules.play.policies import Decision, OddsCache
from rules.sets.protocol import Ruleset

__all__ = [
    "DEFAULT_DEFENDER",
    "AnswerOdds",
    "DefendedDecision",
    "DefenseAnswer",
    "answer_options",
    "answer_words",
    "answered_decision",
    "choose_answer",
    "defended_decision",
    "ranked",
    "with_answer",
]

# Who answers for a GM's fighter when the GM lets the computer (the headless run,
# and the window's "Choose my fighters' defenses for me"): the default policy.
DEFAULT_DEFENDER = PolicyChoice("aggressive")

# The harm of an answer: the expected injury as a share of the defender's hit
# points, plus the chance of being taken out (weighed more by a careful fighter)
# and the chance of losing the weapon or shield (a cost for the blows to come).
TAKEN_OUT_WEIGHT = Fraction(2)
CAREFUL_TAKEN_OUT_WEIGHT = Fraction(6)


@dataclass(frozen=True, slots=True)
class AnswerOdds:
    """One answer to a planned attack with its exact odds: the chance the blow
    strikes the defender, the expected injury and the chance it takes the
    defender out; ``words``: the answer as the GM says it ("parry with the
    rapier")."""

    answer: DefenderAnswer
    words: str
    struck: Fraction
    expected_injury: Fraction
    takes_out: Fraction

    def harm(self, hit_points: int, taken_out_weight: Fraction = TAKEN_OUT_WEIGHT) -> Fraction:
        """How bad the answer is for the defender (lower is better)."""
        return self.expected_injury / max(1, hit_points) + taken_out_weight * self.takes_out


@dataclass(frozen=True, slots=True)
class DefenseAnswer:
    """A computer defender's answer: the answer, the reason line the log shows,
    and every answer it weighed with its odds, in the ruleset's order (the
    likeliest first)."""

    defender_id: str
    answer: DefenderAnswer
    reason: str
    options: tuple[AnswerOdds, ...]

    @property
    def chosen(self) -> AnswerOdds:
        return next(o for o in self.options if o.answer == self.answer)


def _steps_of(ruleset: Ruleset) -> AttackSteps[Any, Any, Any, Any] | None:
    """The ruleset's attack in four steps, when its attack role runs on them."""
    steps = getattr(ruleset.attacks, "steps", None)
    if steps is None or not hasattr(steps, "decide"):
        return None
    return cast("AttackSteps[Any, Any, Any, Any]", steps)


def answer_options(
    ruleset: Ruleset, state: BattleState, attack: Attack, cache: OddsCache | None = None
) -> tuple[AnswerOdds, ...]:
    """Every answer the defender may give to ``attack`` on ``state``, the likeliest
    first, each with its exact odds; () when the attack cannot be planned (the
    battle refuses it) or the ruleset's attack does not run in four steps."""
    steps = _steps_of(ruleset)
    if steps is None:
        return ()
    cache = OddsCache() if cache is None else cache
    try:
        plan = planned(steps, state, attack.attacker_id, attack.defender_id, attack.choices)
        answers = steps.answers(plan)
        defender = state.combatant(attack.defender_id)
        out = []
        for answer in dict.fromkeys(answers):
            odds = cache.odds(steps, plan, answer)
            struck = sum((p for kind, p in odds.kinds.items() if kind.landing.struck), Fraction(0))
            words = answer_words(answer, defender)
            out.append(AnswerOdds(answer, words, struck, odds.expected_injury, odds.takes_out))
    except RulesError:
        return ()
    return tuple(out)


def ranked(
    options: tuple[AnswerOdds, ...], hit_points: int, choice: PolicyChoice = DEFAULT_DEFENDER
) -> list[AnswerOdds]:
    """``options`` from the least harm to the most (``AnswerOdds.harm``, a careful
    fighter weighing being taken out more); on a tie, the one struck least first,
    then the likeliest (the ruleset's order)."""
    weight = CAREFUL_TAKEN_OUT_WEIGHT if choice.key == "careful" else TAKEN_OUT_WEIGHT
    order = sorted(
        range(len(options)),
        key=lambda i: (options[i].harm(hit_points, weight), options[i].struck, i),
    )
    return [options[i] for i in order]


def choose_answer(
    ruleset: Ruleset,
    state: BattleState,
    attack: Attack,
    choice: PolicyChoice = DEFAULT_DEFENDER,
    cache: OddsCache | None = None,
) -> DefenseAnswer | None:
    """The answer a computer defender playing ``choice`` gives to ``attack``: the
    one of least harm (``AnswerOdds.harm``; on a tie, the one struck least, then
    the likeliest), with its reason. None when there is nothing to choose from
    (the attack cannot be planned)."""
    options = answer_options(ruleset, state, attack, cache)
    if not options:
        return None
    defender = state.combatant(attack.defender_id)
    best, *others = ranked(options, defender.fighter.hit_points, choice)
    who = f"{defender.name} ({choice.key})"
    reason = f"{who} {_deed(best.words)}: {_percent(best.struck)} to be hit"
    # Against the next best answer that is struck more often: what the choice saves.
    runner_up = next((o for o in others if o.struck != best.struck), None)
    if runner_up is not None:
        reason += f" instead of {_percent(runner_up.struck)} ({runner_up.words})"
        if best.struck > runner_up.struck:  # hit more often, but hurt less (a block that soaks)
            reason += (
                f", {float(best.expected_injury):.1f} injury expected instead of "
                f"{float(runner_up.expected_injury):.1f}"
            )
    if best.takes_out >= Fraction(1, 200):
        reason += f", {_percent(best.takes_out)} to be taken out"
    return DefenseAnswer(defender.id, best.answer, reason, options)


def with_answer(
    ruleset: Ruleset,
    state: BattleState,
    attack: Attack,
    choice: PolicyChoice = DEFAULT_DEFENDER,
    cache: OddsCache | None = None,
) -> tuple[Attack, DefenseAnswer | None]:
    """``attack`` carrying the answer its computer defender chooses (and that
    choice), so that the command saves and replays exactly; unchanged, with
    None, when it carries an answer already or there is none to choose."""
    if attack.answer is not None:
        return attack, None
    chosen = choose_answer(ruleset, state, attack, choice, cache)
    if chosen is None:
        return attack, None
    return replace(attack, answer=chosen.answer), chosen


@dataclass(frozen=True, slots=True)
class DefendedDecision(Decision):
    """A computer fighter's decision whose attacks carry the answers their
    computer defenders chose (``answers``, with their reasons, in the order of
    the commands)."""

    answers: tuple[DefenseAnswer, ...] = ()


def answered_decision(
    ruleset: Ruleset,
    state: BattleState,
    decision: Decision,
    controller_of: Callable[[str], PolicyChoice | None],
    cache: OddsCache | None = None,
) -> Decision:
    """``decision`` with the answer of each of its attacks chosen by the
    defender's controller (``controller_of``: its policy, None for the GM): a
    computer defender's by ``choose_answer`` on ``state`` (the attack is the
    decision's only command, or its last), a GM's left to the GM (None). The
    decision itself when nothing changed."""
    commands = list(decision.commands)
    answers: list[DefenseAnswer] = []
    for i, command in enumerate(commands):
        if not isinstance(command, Attack) or command.answer is not None:
            continue
        choice = controller_of(command.defender_id)
        if choice is None:
            continue
        commands[i], chosen = with_answer(ruleset, state, command, choice, cache)
        if chosen is not None:
            answers.append(chosen)
    if not answers:
        return decision
    return defended_decision(decision, commands, answers)


def defended_decision(
    decision: Decision, commands: Sequence[Command], answers: Sequence[DefenseAnswer]
) -> DefendedDecision:
    """``decision`` with ``commands`` in place of its own and ``answers`` after
    the ones it carried already."""
    earlier = decision.answers if isinstance(decision, DefendedDecision) else ()
    return DefendedDecision(
        decision.combatant_id,
        decision.label,
        tuple(commands),
        decision.ends_turn,
        decision.reason,
        decision.score,
        decision.alternatives,
        (*earlier, *answers),
    )


# --- the answer in the GM's words ---------------------------------------------------

_DEEDS = {"dodge": "dodges", "parry": "parries", "block": "blocks"}
_NONE_WORDS = frozenset({"none", "no defense"})


def _percent(p: Fraction) -> str:
    if 0 < p < Fraction(1, 200):
        return "<1%"
    return f"{float(p) * 100:.0f}%"


def _deed(words: str) -> str:
    """An answer's words as what the defender does ("parry with the rapier" ->
    "parries with the rapier")."""
    if words == "no defense":
        return "makes no defense"
    first, _, rest = words.partition(" ")
    if first in _DEEDS:
        return f"{_DEEDS[first]} {rest}".rstrip()
    article = "an" if words[:1] in "aeiou" else "a"
    return f"answers with {article} {words}"


def answer_words(answer: object, defender: Combatant) -> str:
    """An answer in a few words, read from its own fields: its kinds ("dodge",
    "parry"), the weapon it names by the defender's name for it ("with the
    rapier"), a flag set by its field's name ("acrobatic dodge"); "no defense"
    for none; "its default defense" when every field is left at its default."""
    words = _words(answer, defender)
    return words or "its default defense"


def _words(value: object, defender: Combatant) -> str:
    if isinstance(value, Enum):
        text = str(value.value)
        return "no defense" if text in _NONE_WORDS else text
    if isinstance(value, str):
        if not value:
            return ""
        weapon = next((w for w in defender.fighter.weapons if w.key == value), None)
        name = weapon.name if weapon is not None else value
        return f"with the {name[:1].lower()}{name[1:]}"
    if isinstance(value, tuple):
        parts = [w for w in (_words(v, defender) for v in value) if w]
        return ", then ".join(parts) if parts else "no defense"
    if is_dataclass(value) and not isinstance(value, type):
        parts = []
        for f in fields(value):
            field_value = getattr(value, f.name)
            if isinstance(field_value, bool):
                if field_value:
                    parts.append(f.name.replace("_", " "))
                continue
            text = _words(field_value, defender)
            if text:
                parts.append(text)
        flags = [p for p in parts if " " in p and not p.startswith("with ")]
        return _joined(parts, flags)
    return ""


def _joined(parts: list[str], flags: list[str]) -> str:
    """The parts of one answer: a flag that names a defense already said replaces
    it ("dodge" and "acrobatic dodge": "acrobatic dodge")."""
    kept = [p for p in parts if not any(f != p and f.endswith(p) for f in flags)]
    return " ".join(kept)
