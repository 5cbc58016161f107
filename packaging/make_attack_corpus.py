"""Write the attack and odds corpora and the legacy file's digests: what the rules do
today, recorded so that a refactor of the attack can prove it leaves them where they are.

    python packaging/make_attack_corpus.py            # (re)write all three
    python packaging/make_attack_corpus.py --check    # exit 1 if a committed one is stale

The cases are app.benchmark's attack set-ups, widened to every ruleset. A *group*
is a ruleset, plain or with one of its options, fought by its demo battle's
fighters (``assets/battles/demo-<key>.hexfray``); one more group is the
benchmark's own ``demo.json`` under seed 000. In a group, every fighter attacks
every other on a clean map. The attacker faces north; the defender stands straight
ahead at each distance where one of the attacker's modes first reaches (its
shortest melee reach, a short shot, one hex past a 1/2D range), facing the
attacker, beside it or away. Each set of choices the attack form offers there
(``Attacks.attack_variants``) is one case, if the rules accept it. With the plain
attack (``Attacks.default_attack``) and the defender facing the attacker, there
are also cases with each terrain of the demo under each fighter, with each
maneuver either fighter may choose (the attacker's: those that let it attack),
and with the attack made twice in a row.

* ``tests/data/attack_corpus.json``: each case's ``Attack`` through
  ``Battle.execute`` (the GM's path) on each of ``SEEDS``. For each of ``FIELDS``
  it keeps a digest over the seeds: the events' texts and citations in order, the
  file encoding of every combatant the attack changed, the items it placed, and
  the faces it rolled.
* ``tests/data/odds_corpus.json``: ``Attacks.preview_attack`` of each case whose
  defender faces the attacker and that attacks once: the summary, the modifiers
  and every odds line with its exact probability as a fraction.
* ``tests/data/legacy/digests.json``: for each old battle file kept in
  ``tests/data/legacy``, the digests of the state, events and faces it loads to.

A case is data, never a pickled object. Its group names the ruleset, the options
and the demo. Its set-up names the two fighters by their demo ids, the distance
and the facing. Its choices are written as a battle file writes them: the fields
not at their default, with the group's ``choices_type`` as their ``"@type"``.
``attack_of`` builds the command from them. When the ``Attack`` command changes
shape, adapt ``attack_of`` and leave the recorded digests alone.

Run the script only after a deliberate change of the rules, and say in the commit
which cases changed and why (docs/architecture.md, "The attack and odds corpora").
tests/rules/test_attack_corpus.py, test_odds_corpus.py and test_savefile_v2.py
recompute every case and name the first that differs.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexmap import Facing, Hex, HexGrid  # noqa: E402  (the repository root is on the path)
from rules.battle.attack_choices import AttackChoices  # noqa: E402
from rules.battle.battle import Battle  # noqa: E402
from rules.battle.catalog import load_demo_battle  # noqa: E402
from rules.battle.commands import Attack  # noqa: E402
from rules.battle.items import GroundItem  # noqa: E402
from rules.battle.maneuvers import ManeuverChoice  # noqa: E402
from rules.battle.model import Combatant, Fighter, Status  # noqa: E402
from rules.battle.savefile import decode_command, read_battle, saved_types_for  # noqa: E402
from rules.battle.state import BattleState  # noqa: E402
from rules.battle.terrain import Terrain, TerrainMap  # noqa: E402
from rules.battle.values import TYPE_KEY, SavedTypes, ValueCodec  # noqa: E402
from rules.core.citation import Citation  # noqa: E402
from rules.core.errors import RulesError  # noqa: E402
from rules.core.events import Event  # noqa: E402
from rules.sets.protocol import Ruleset  # noqa: E402
from rules.sets.registry import get_ruleset, ruleset_keys  # noqa: E402

DATA = ROOT / "tests" / "data"
ATTACK_CORPUS = DATA / "attack_corpus.json"
ODDS_CORPUS = DATA / "odds_corpus.json"
LEGACY = DATA / "legacy"
LEGACY_DIGESTS = LEGACY / "digests.json"
BATTLES = ROOT / "assets" / "battles"
BENCHMARK_DEMO = "demo.json"  # app.benchmark's seed 000 demo (its spearman throws a knife)
SCRIPT_NAME = "packaging/make_attack_corpus.py"
ABOUT = f"Written by {SCRIPT_NAME}; docs/architecture.md, 'The attack and odds corpora'."

SEEDS = (0, 1, 2, 3, 4)
FIELDS = ("events", "fighters", "items", "dice")
FACINGS = (Facing.S, Facing.SE, Facing.N)  # the defender faces the attacker, beside it, away
SHORT_SHOT = 3  # hexes: a missile or a throw at short range
ROOM = 6  # free hexes around the two fighters, for whatever flies off
DIGEST_CHARS = 8  # of a sha256: a change of a field goes unseen once in 2**32
# The battle file schema in whose shape the recorded choices are written: the
# defender's answer still inside the attacker's choices.
CHOICES_SCHEMA = 2


@dataclass(frozen=True)
class Group:
    """A ruleset with its options, fought by one demo battle's fighters."""

    ruleset: str
    options: tuple[str, ...]
    demo: str  # a file of assets/battles

    @property
    def name(self) -> str:
        return "+".join((Path(self.demo).stem, *self.options))

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name, "ruleset": self.ruleset,
            "options": list(self.options), "demo": self.demo,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Group:
        return cls(data["ruleset"], tuple(data["options"]), data["demo"])


@dataclass(frozen=True)
class Setup:
    """Two of the demo's fighters, by their demo ids, alone on a clean map: the
    attacker facing north, the defender straight ahead at ``distance`` facing
    ``facing``. ``ground``: one of the demo's terrains under the ``"attacker"`` or
    the ``"defender"``. ``maneuver``: the maneuver one of them has chosen.
    ``attacks``: how often the attack is made in a row (the second meets a
    defender already struck, with the first in both fighters' record of the turn)."""

    attacker: str
    defender: str
    distance: int
    facing: Facing
    ground: tuple[str, Terrain] | None = None
    maneuver: tuple[str, ManeuverChoice] | None = None
    attacks: int = 1

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "attacker": self.attacker, "defender": self.defender,
            "distance": self.distance, "facing": self.facing.name,
        }  # fmt: skip
        if self.ground is not None:
            under, terrain = self.ground
            data["ground"] = {"under": under, "terrain": _battle_codec().encode(terrain, Terrain)}
        if self.maneuver is not None:
            whose, choice = self.maneuver
            data["maneuver"] = {"of": whose, "key": choice.key, "option": choice.option}
        if self.attacks != 1:
            data["attacks"] = self.attacks
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        ground, maneuver = data.get("ground"), data.get("maneuver")
        return cls(
            data["attacker"], data["defender"], data["distance"], Facing[data["facing"]],
            None if ground is None else (
                ground["under"], _battle_codec().decode(ground["terrain"], Terrain, "ground")
            ),
            None if maneuver is None else (
                maneuver["of"], ManeuverChoice(maneuver["key"], maneuver["option"])
            ),
            data.get("attacks", 1),
        )  # fmt: skip


@dataclass(frozen=True)
class Case:
    """One attack: its set-up and the attacker's choices as a battle file writes them."""

    group: Group
    setup: Setup
    choices: Mapping[str, object]

    def describe(self) -> str:
        s = self.setup
        where = f", the {s.ground[0]} on {s.ground[1].describe()}" if s.ground else ""
        if s.maneuver is not None:
            whose, choice = s.maneuver
            where += f", the {whose} in {choice.key} {choice.option}".rstrip()
        again = f", {s.attacks} times" if s.attacks != 1 else ""
        return (
            f"{self.group.name}: {s.attacker} attacks {s.defender} at {s.distance} hex(es), "
            f"the defender facing {s.facing.name}{where}{again}, choices "
            f"{_json(self.choices)}"
        )


# --- building a case ------------------------------------------------------------------
@functools.cache
def _battle_codec() -> ValueCodec:
    return ValueCodec(saved_types_for(()))


class _SheetKeepingCodec(ValueCodec):
    """The battle file's codec, which keeps each fighter's sheet as written: an
    attack rarely changes a sheet, and writing it is most of a case's time."""

    def __init__(self, types_: SavedTypes) -> None:
        super().__init__(types_)
        self._sheets: dict[tuple[int, object], tuple[Fighter, object]] = {}

    def encode(self, value: object, hint: object) -> object:
        if not isinstance(value, Fighter):
            return super().encode(value, hint)
        kept = self._sheets.get((id(value), hint))
        if kept is None or kept[0] is not value:
            kept = (value, super().encode(value, hint))
            self._sheets[id(value), hint] = kept
        return kept[1]

    def forget(self) -> None:
        self._sheets.clear()


@functools.cache
def codec_of(group: Group) -> _SheetKeepingCodec:
    """The battle file's codec for the group's ruleset."""
    return _SheetKeepingCodec(saved_types_for(ruleset_of(group).sheets.saved_types))


def ruleset_of(group: Group) -> Ruleset:
    return get_ruleset(group.ruleset, group.options)


@functools.cache
def demo_state(demo: str) -> BattleState:
    """The demo battle as its file leaves it (fighters added, turns begun)."""
    if demo == BENCHMARK_DEMO:
        return BattleState(*load_demo_battle())
    return read_battle((BATTLES / demo).read_bytes(), rulesets=get_ruleset).state


def battle_state(group: Group, setup: Setup) -> BattleState:
    fighters = {c.id: c for c in demo_state(group.demo).combatants}
    grid = HexGrid(2 * ROOM + 1, setup.distance + 2 * ROOM + 1)
    here = Hex.from_offset(ROOM, setup.distance + ROOM)
    there = here + Facing.N.vector.scale(setup.distance)
    terrain = TerrainMap()
    if setup.ground is not None:
        under, ground = setup.ground
        terrain = TerrainMap(((here if under == "attacker" else there, ground),))
    chosen = dict([setup.maneuver]) if setup.maneuver is not None else {}
    return BattleState(
        grid,
        (
            _fresh(fighters[setup.attacker], here, Facing.N, chosen.get("attacker")),
            _fresh(fighters[setup.defender], there, setup.facing, chosen.get("defender")),
        ),
        ruleset_key=group.ruleset,
        ruleset_options=group.options,
        terrain=terrain,
    )


def _fresh(
    template: Combatant, where: Hex, facing: Facing, maneuver: ManeuverChoice | None
) -> Combatant:
    hp = template.fighter.hit_points
    return replace(
        template, hex=where, facing=facing, hp=hp, status=Status.ACTIVE, maneuver=maneuver
    )


def attack_of(case: Case) -> Attack:
    """The case's command: the one place to adapt when ``Attack`` changes shape.
    The recorded choices are read as a battle file of ``CHOICES_SCHEMA`` holds
    them: a ruleset whose defender has answered apart since has its answer moved
    out of them, as the file's reading does (``rules.battle.savefile.lift_attack``)."""
    data = {
        TYPE_KEY: Attack.__name__,
        "attacker_id": case.setup.attacker,
        "defender_id": case.setup.defender,
        "options": dict(case.choices),
    }
    codec = codec_of(case.group)
    command = decode_command(data, codec, "the case's choices", version=CHOICES_SCHEMA)
    assert isinstance(command, Attack)
    return command


# --- what a case does -----------------------------------------------------------------
def outcome_digest(case: Case) -> tuple[str, ...]:
    """A digest per field of ``FIELDS`` of the case's attack made on each of ``SEEDS``."""
    hashes = [hashlib.sha256() for _ in FIELDS]
    for seed, number, parts in outcome_texts(case):
        for digest, text in zip(hashes, parts, strict=True):
            digest.update(f"seed {seed}, attack {number}\n{text}".encode())
    return tuple(h.hexdigest()[:DIGEST_CHARS] for h in hashes)


def outcome_texts(case: Case) -> Iterator[tuple[int, int, tuple[str, ...]]]:
    """For each seed and each attack of the case: the text of each field."""
    state, command = battle_state(case.group, case.setup), attack_of(case)
    codec = codec_of(case.group)
    codec.forget()  # the sheets of the case before
    for seed in SEEDS:
        battle = Battle(state, seed, get_ruleset)
        for number in range(1, case.setup.attacks + 1):
            yield seed, number, _attack_texts(battle, command, codec)


def _attack_texts(battle: Battle, command: Attack, codec: ValueCodec) -> tuple[str, ...]:
    before = battle.state
    try:
        events = battle.execute(command)
    except RulesError as refusal:  # the second of two attacks may be refused
        return (f"refused: {type(refusal).__name__}: {refusal}\n", "", "", "")
    after = battle.state
    was = {c.id: c for c in before.combatants}
    return (
        "".join(_event_line(e) for e in events),
        "".join(_json(codec.encode(c, Combatant)) + "\n" for c in after.combatants
                if was.get(c.id) != c),
        "".join(_json(codec.encode(i, GroundItem)) + "\n" for i in after.items
                if i not in before.items),
        " ".join(str(face) for face in battle.dice_log[-1]) + "\n",
    )  # fmt: skip


def _event_line(event: Event) -> str:
    return f"{event.describe()}\t{_cited(event.citation)}\n"


def _cited(citation: Citation | None) -> str:
    return "" if citation is None else f"{citation.seed} {citation.heading}"


Cited = tuple[int, str, str]  # a modifier: its value, its reason, its citation


@dataclass(frozen=True)
class Odds:
    """The attack pane's plan and exact odds of a case (the summary, the modifiers,
    each odds line's label and probability as a fraction), or the rules' refusal."""

    summary: str = ""
    modifiers: tuple[Cited, ...] = ()
    lines: tuple[tuple[str, str], ...] = ()
    refused: str = ""


def odds_of(case: Case) -> Odds:
    command = attack_of(case)
    state = battle_state(case.group, case.setup)
    try:
        preview = ruleset_of(case.group).attacks.preview_attack(
            state, command.attacker_id, command.defender_id, command.choices, command.answer
        )
    except RulesError as refusal:
        return Odds(refused=f"{type(refusal).__name__}: {refusal}")
    return Odds(
        preview.summary,
        tuple((m.value, m.reason, _cited(m.citation)) for m in preview.modifiers),
        tuple((line.label, str(line.probability)) for line in preview.odds),
    )


def legacy_digest(path: Path) -> dict[str, str]:
    """What an old battle file loads to: its state, its events and its faces."""
    battle = read_battle(path.read_bytes(), rulesets=get_ruleset)
    initial = battle.initial
    ruleset = get_ruleset(initial.ruleset_key, initial.ruleset_options)
    codec = ValueCodec(saved_types_for(ruleset.sheets.saved_types))
    events = "".join(
        f"command {i}\n" + "".join(_event_line(e) for e in batch)
        for i, batch in enumerate(battle.event_batches)
    )
    return {
        "state": _sha(_json(codec.encode(battle.state, BattleState))),
        "events": _sha(events),
        "dice": _sha(_json([list(faces) for faces in battle.dice_log])),
    }


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


# --- finding the cases (today's attack forms) ---------------------------------------------
def groups() -> tuple[Group, ...]:
    """Each registered ruleset on its demo battle, plain and with each of its options
    alone; and the benchmark's demo under the ruleset it names, plain (its fighters
    are the 000 demo's, but for the knife its spearman throws)."""
    found: list[Group] = []
    for key in ruleset_keys():
        options = ((), *((option,) for option in get_ruleset(key).available_options))
        found.extend(Group(key, chosen, f"demo-{key}.hexfray") for chosen in options)
    found.append(Group(demo_state(BENCHMARK_DEMO).ruleset_key, (), BENCHMARK_DEMO))
    return tuple(found)


def cases_of(group: Group) -> Iterator[Case]:
    ruleset = ruleset_of(group)
    fighters = demo_state(group.demo).combatants
    terrains = tuple(dict.fromkeys(t for _, t in demo_state(group.demo).terrain.cells))
    for attacker in fighters:
        for defender in (f for f in fighters if f.id != attacker.id):
            for distance in distances(attacker):
                for facing in FACINGS:
                    setup = Setup(attacker.id, defender.id, distance, facing)
                    state = battle_state(group, setup)
                    variants = ruleset.attacks.attack_variants(state, attacker.id, defender.id)
                    yield from _accepted(group, setup, variants)
                facing_attacker = Setup(attacker.id, defender.id, distance, Facing.S)
                yield from _plain(group, replace(facing_attacker, attacks=2))
                for terrain in terrains:
                    for under in ("attacker", "defender"):
                        yield from _plain(group, replace(facing_attacker, ground=(under, terrain)))
                for whose, choice in _maneuvers(ruleset, battle_state(group, facing_attacker)):
                    yield from _plain(group, replace(facing_attacker, maneuver=(whose, choice)))


def _maneuvers(ruleset: Ruleset, state: BattleState) -> Iterator[tuple[str, ManeuverChoice]]:
    """Each maneuver choice that lets the attacker attack, and each of the defender's."""
    for whose, fighter in zip(("attacker", "defender"), state.combatants, strict=True):
        for maneuver in ruleset.turns.maneuvers(state, fighter.id):
            for option in ("", *(o.key for o in maneuver.options)):
                if whose == "defender" or maneuver.terms(option).attacks:
                    yield whose, ManeuverChoice(maneuver.key, option)


def distances(attacker: Combatant) -> list[int]:
    """The distances at which one of the attacker's modes reaches first: its
    shortest melee reach, a short shot, one hex past a 1/2D range."""
    found: set[int] = set()
    for weapon in attacker.fighter.weapons:
        for mode in weapon.modes:
            if mode.is_ranged and mode.range_hexes:
                found.add(min(SHORT_SHOT, mode.range_hexes))
                half = mode.half_damage_hexes
                if half is not None and half < mode.range_hexes:
                    found.add(half + 1)
            elif any(d > 0 for d in mode.reach.distances):
                found.add(min(d for d in mode.reach.distances if d > 0))
    return sorted(found)


def _plain(group: Group, setup: Setup) -> Iterator[Case]:
    state = battle_state(group, setup)
    choices = ruleset_of(group).attacks.default_attack(state, setup.attacker, setup.defender)
    if choices is not None:
        yield from _accepted(group, setup, (choices,))


def _accepted(
    group: Group, setup: Setup, variants: Sequence[AttackChoices]
) -> Iterator[Case]:
    """The choices the rules accept there (the first attack, on seed 0)."""
    state = battle_state(group, setup)
    for choices in variants:
        try:
            Battle(state, 0, get_ruleset).execute(Attack(setup.attacker, setup.defender, choices))
        except RulesError:
            continue
        encoded = codec_of(group).encode(choices, object)
        assert isinstance(encoded, dict)
        yield Case(group, setup, encoded)


def faces_attacker(case: Case) -> bool:
    """A case the odds corpus holds: the defender faces the attacker, one attack."""
    return case.setup.facing is Facing.S and case.setup.attacks == 1


# --- the files ----------------------------------------------------------------------------
# An odds corpus names each summary, modifier and list of odds labels once, in its
# tables, and a case by its index there: a few hundred of them serve thousands of cases.
ODDS_TABLES = ("summaries", "modifiers", "labels")
GROUP_ROWS = ("setups", "choices", "cases")  # a group's tables, one row a line


def attack_document(cases: Sequence[Case]) -> dict[str, object]:
    head = {"about": ABOUT, "seeds": list(SEEDS), "fields": list(FIELDS)}
    return _document(head, cases, lambda case: {"digest": list(outcome_digest(case))})


def odds_document(cases: Sequence[Case]) -> dict[str, object]:
    tables: dict[str, dict[Hashable, int]] = {name: {} for name in ODDS_TABLES}

    def kept(table: str, value: Hashable) -> int:
        """``value``'s index in ``table``, added if new."""
        return tables[table].setdefault(value, len(tables[table]))

    def record(case: Case) -> dict[str, object]:
        odds = odds_of(case)
        if odds.refused:
            return {"refused": odds.refused}
        return {
            "summary": kept("summaries", odds.summary),
            "modifiers": [kept("modifiers", m) for m in odds.modifiers],
            "labels": kept("labels", tuple(label for label, _ in odds.lines)),
            "odds": [probability for _, probability in odds.lines],
        }

    groups_data = _document({}, cases, record)["groups"]
    return {"about": ABOUT, **{k: list(v) for k, v in tables.items()}, "groups": groups_data}


def _document(
    head: Mapping[str, object],
    cases: Sequence[Case],
    record: Callable[[Case], dict[str, object]],
) -> dict[str, object]:
    """``head``, then per group: the type of its choices, its distinct set-ups and
    choices, and per case the index of its set-up and of its choices, and its
    ``record``."""
    by_group: dict[Group, list[Case]] = {}
    for case in cases:
        by_group.setdefault(case.group, []).append(case)
    groups_data: list[dict[str, object]] = []
    for group, members in by_group.items():
        setups = {s: i for i, s in enumerate(dict.fromkeys(c.setup for c in members))}
        choices = {c: i for i, c in enumerate(dict.fromkeys(_untyped(c) for c in members))}
        (choices_type,) = {case.choices[TYPE_KEY] for case in members}
        groups_data.append({
            **group.as_json(),
            "choices_type": choices_type,
            "setups": [setup.as_json() for setup in setups],
            "choices": [json.loads(text) for text in choices],
            "cases": [
                {"setup": setups[case.setup], "choices": choices[_untyped(case)], **record(case)}
                for case in members
            ],
        })  # fmt: skip
    return {**head, "groups": groups_data}


def _untyped(case: Case) -> str:
    """The case's choices without their type, as JSON text."""
    return _json({k: v for k, v in case.choices.items() if k != TYPE_KEY})


def recorded_cases(
    document: Mapping[str, Any], name: str
) -> Iterator[tuple[Case, dict[str, Any]]]:
    """Each case of the group called ``name`` in a corpus, with its entry."""
    (data,) = (g for g in document["groups"] if g["name"] == name)
    group = Group.from_json(data)
    setups = [Setup.from_json(s) for s in data["setups"]]
    choices = [{TYPE_KEY: data["choices_type"], **c} for c in data["choices"]]
    for entry in data["cases"]:
        yield Case(group, setups[entry["setup"]], choices[entry["choices"]]), entry


def recorded_odds(document: Mapping[str, Any], entry: Mapping[str, Any]) -> Odds:
    """The odds a case's entry of the odds corpus holds."""
    if "refused" in entry:
        return Odds(refused=entry["refused"])
    summaries, modifiers, labels = (document[table] for table in ODDS_TABLES)
    return Odds(
        summaries[entry["summary"]],
        tuple(tuple(modifiers[i]) for i in entry["modifiers"]),
        tuple(zip(labels[entry["labels"]], entry["odds"], strict=True)),
    )


def group_names(document: Mapping[str, Any]) -> list[str]:
    return [g["name"] for g in document["groups"]]


def document_text(document: Mapping[str, Any]) -> str:
    """The document as JSON with one line per row of its tables (set-ups, choices,
    cases ...), so that a diff shows the cases a change touched."""

    def rows(items: Sequence[object]) -> str:
        return "[\n" + ",\n".join(f"    {_json(item)}" for item in items) + "]"

    def group_text(group: Mapping[str, Any]) -> str:
        about = _json({k: v for k, v in group.items() if k not in GROUP_ROWS})
        tables = "".join(f',\n   "{k}":{rows(group[k])}' for k in GROUP_ROWS)
        return f"  {about[:-1]}{tables}}}"

    head = "".join(
        f" {_json(k)}:{rows(v) if k in ODDS_TABLES else _json(v)},\n"
        for k, v in document.items()
        if k != "groups"
    )
    body = ",\n".join(group_text(g) for g in document["groups"])
    return "{\n" + head + ' "groups":[\n' + body + "]\n}\n"


def read_document(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def corpus_texts() -> dict[Path, str]:
    """Each file the script writes, with its text."""
    cases = [case for group in groups() for case in cases_of(group)]
    legacy = {path.name: legacy_digest(path) for path in sorted(LEGACY.glob("*.hexfray"))}
    return {
        ATTACK_CORPUS: document_text(attack_document(cases)),
        ODDS_CORPUS: document_text(odds_document([c for c in cases if faces_attacker(c)])),
        LEGACY_DIGESTS: json.dumps(legacy, indent=1, sort_keys=True) + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a committed file differs from what would be written",
    )
    args = parser.parse_args(argv)
    stale: list[str] = []
    for path, text in corpus_texts().items():
        name = str(path.relative_to(ROOT))
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {name} ({len(text.encode('utf-8')):,} bytes)")
    for name in stale:
        print(f"{name} is not what the script writes: run python {SCRIPT_NAME}")
    if args.check and not stale:
        print("the corpora and the legacy digests are up to date")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
