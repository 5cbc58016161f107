"""Every number a file holds is bounded before it is converted (issue 23, "Inputs
that hang or crash", 1): ``Fraction("1e999999999")`` computes ten to the power of
a billion, which ran for more than an hour in a template, a battle file and
``main.py FILE --screenshot``. Each reader (battle file, template JSON, the
bundled tables, GCS import, a sheet a file holds as text) refuses such a number
at once with its own error, in one line naming the field
(``rules.core.numbers``, ``rules.core.strict_json``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from rules.battle.savefile import BattleFileError, read_battle
from rules.core import assets
from rules.core.errors import DataError
from rules.core.jsondata import as_fraction
from rules.core.numbers import MAX_EXPONENT, MAX_NUMBER_CHARS, NumberTextError, parse_fraction
from rules.core.strict_json import bounded_loads, strict_json
from rules.sets.registry import get_ruleset
from rules.sets.seed000.damage import parse_wounding_table
from rules.sets.seed000.gcs_import import read_gcs
from tests.rules.test_digit_text import document, first_mode
from tests.rules.test_gcs_import import FIXTURES
from tests.rules.test_history import demo_battle

HUGE = "1e999999999"  # the number: Fraction() of it never finished


def one_line(message: str) -> str:
    assert "\n" not in message and len(message) < 300, message
    return message


# --- the bound itself ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3/2", Fraction(3, 2)),
        (" -2 ", Fraction(-2)),
        ("0.25", Fraction(1, 4)),
        ("1e-3", Fraction(1, 1000)),
        ("2E+2", Fraction(200)),
        (f"1e{MAX_EXPONENT}", Fraction(10**MAX_EXPONENT)),
    ],
)
def test_numbers_within_the_bounds_read_as_fraction_reads_them(text: str, value: Fraction) -> None:
    assert parse_fraction(text) == value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (HUGE, f"a power of ten beyond {MAX_EXPONENT}"),
        ("1e-999999999", f"a power of ten beyond {MAX_EXPONENT}"),
        (f"1e{MAX_EXPONENT + 1}", f"a power of ten beyond {MAX_EXPONENT}"),
        ("9" * 5000, "too long to read (5,000 characters"),
        ("1/" + "7" * (MAX_NUMBER_CHARS - 1), f"at most {MAX_NUMBER_CHARS}"),
        ("0." + "0" * 5000 + "1", "too long to read"),
        ("٣/٤", 'expected a number or a fraction like "3/2"'),  # Fraction() takes these
        ("1_000", "expected a number or a fraction"),
        ("3 / 2", "expected a number or a fraction"),
        ("nan", "expected a number or a fraction"),
        ("1/0", "divides by zero"),
    ],
)
def test_numbers_beyond_the_bounds_are_refused_before_conversion(text: str, reason: str) -> None:
    with pytest.raises(NumberTextError, match=reason.replace("(", r"\(")) as caught:
        parse_fraction(text)
    one_line(str(caught.value))


def test_a_json_number_too_long_or_too_large_is_refused_at_its_place() -> None:
    with pytest.raises(NumberTextError) as caught:
        bounded_loads('{"log": [{"dice": [1, ' + "9" * 5000 + "]}]}")
    assert one_line(str(caught.value)).startswith("log[0].dice[1]: the number 99999")
    with pytest.raises(NumberTextError, match=r"^weight: the number 1e999999999 is too large"):
        bounded_loads('{"weight": 1e999999999}')  # json.loads makes it infinity
    with pytest.raises(NumberTextError, match="the number 1e400 is too large"):
        bounded_loads("[1e400]")
    assert bounded_loads('{"seed": 18446744073709551616, "w": 2.5e-7}') == {
        "seed": 2**64,
        "w": 2.5e-7,
    }


def test_strict_json_names_the_place_in_the_callers_error() -> None:
    with pytest.raises(DataError, match=r"^asset x: a\.b\[2\]: the number 1e999999999"):
        strict_json('{"a": {"b": [1, 2, 1e999999999]}}', lambda p: DataError(f"asset x: {p}"))


# --- the readers -------------------------------------------------------------------------


def battle_refusal(text: str) -> str:
    with pytest.raises(BattleFileError) as caught:
        read_battle(text, rulesets=get_ruleset)
    return one_line(str(caught.value))


def test_a_battle_file_with_a_huge_damage_factor_is_refused_naming_the_field() -> None:
    data = document(demo_battle(1))
    first_mode(data)["damage"]["factor"] = HUGE  # type: ignore[index]
    message = battle_refusal(json.dumps(data))
    assert "combatants[0].fighter.weapons[0].modes[0].damage.factor" in message
    assert f"the number {HUGE} is too large to read" in message


def test_a_battle_file_with_a_huge_json_number_is_refused_naming_the_field() -> None:
    data = document(demo_battle(1))
    data["initial_state"]["combatants"][0]["fighter"]["weapons"][0]["weight"] = 0.5  # type: ignore[index]
    text = json.dumps(data).replace('"weight": 0.5', f'"weight": {HUGE}')
    message = battle_refusal(text)
    assert message.startswith("initial_state.combatants[0].fighter.weapons[0].weight: ")
    assert "too large to read" in message
    text = json.dumps(data).replace('"weight": 0.5', '"weight": ' + "9" * 5000)
    assert "weapons[0].weight: the number 99999" in battle_refusal(text)


@pytest.fixture
def bundle_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the bundled assets that the test may change."""
    shutil.copytree(assets.asset_root(), tmp_path / "assets")
    monkeypatch.setattr(assets, "bundle_root", lambda: tmp_path)
    yield tmp_path / "assets"


def test_a_bundled_table_with_a_huge_fraction_is_refused_naming_the_field(
    bundle_copy: Path,
) -> None:
    table = bundle_copy / "rulesets" / "000" / "wounding.json"
    text = table.read_text(encoding="utf-8")
    assert '"cut": "3/2"' in text
    table.write_text(text.replace('"cut": "3/2"', f'"cut": "{HUGE}"'), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        parse_wounding_table(assets.read_json("rulesets", "000", "wounding.json"))
    message = one_line(str(caught.value))
    assert message.startswith("wounding table.multipliers.cut: the number 1e999999999")


def test_as_fraction_of_a_table_or_template_is_bounded() -> None:
    with pytest.raises(DataError, match=r"^modes\[0\]\.damage\.factor: the number 1e99999"):
        as_fraction(HUGE, "modes[0].damage.factor")
    with pytest.raises(DataError, match="too long to read"):
        as_fraction("1" * 5000 + "/2", "factor")
    assert as_fraction("1/2", "factor") == Fraction(1, 2)


def gcs_with(placeholder_path: tuple[str | int, ...], number_text: str) -> bytes:
    """The sword-and-shield sheet with the number at ``placeholder_path`` written
    as ``number_text`` (JSON text no dumps would write)."""
    document = json.loads((FIXTURES / "sword_and_shield_v5.gcs").read_text(encoding="utf-8"))
    place = document
    for step in placeholder_path[:-1]:
        place = place[step]
    place[placeholder_path[-1]] = "@NUMBER@"
    return json.dumps(document).replace('"@NUMBER@"', number_text).encode("utf-8")


def test_a_gcs_file_with_a_huge_number_is_refused_naming_the_field() -> None:
    for number, reason in (("9" * 5000, "too long to read"), (HUGE, "too large to read")):
        with pytest.raises(DataError) as caught:
            read_gcs(gcs_with(("attributes", 0, "calc", "value"), number))
        message = one_line(str(caught.value))
        assert message.startswith("not a GCS character file: attributes[0].calc.value: the number")
        assert reason in message


def test_a_gcs_weight_of_thousands_of_digits_is_refused_naming_the_field() -> None:
    document = json.loads((FIXTURES / "sword_and_shield_v5.gcs").read_text(encoding="utf-8"))
    document["equipment"][0]["calc"]["weight"] = "1" * 5000 + " lb"
    with pytest.raises(DataError, match=r"weight: the number 1111.* is too long to read"):
        read_gcs(json.dumps(document).encode("utf-8"))


def test_a_long_whole_number_does_not_hide_deep_nesting() -> None:
    """A whole number of 40 digits (within the bounds, read again number by number)
    beside nesting deeper than a battle file's: the depth is refused all the same."""
    text = '{"a": ' + "9" * 40 + ', "b": ' + "[" * 70 + "]" * 70 + "}"
    with pytest.raises(DataError, match="nested too deeply"):
        strict_json(text, DataError)
