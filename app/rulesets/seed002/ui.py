"""Seed 002's ``RulesetUI``: the generic attack form pane over the seed 002
ruleset's ``attack_form``, its log lines, and no inspector section (the generic
sheet view shows ``Sheets.sections``)."""

from __future__ import annotations

from app.rulesets import RulesetUI
from app.rulesets.form_ui import FormRulesetUI
from app.rulesets.seed002.log_lines import LOG_LINES
from rules.battle.state import BattleState
from rules.sets.attack_form import FormAttacks
from rules.sets.seed002.ruleset import seed002_ruleset


def _form_of(state: BattleState) -> FormAttacks:
    return seed002_ruleset(state.ruleset_options).attacks


SEED002_UI: RulesetUI = FormRulesetUI(_form_of, LOG_LINES)
