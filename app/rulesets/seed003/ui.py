"""Seed 003's ``RulesetUI``: the generic attack form pane over the seed 003
ruleset's ``attack_form``, its log lines, and no inspector section (the generic
sheet view shows ``Sheets.sections``)."""

from __future__ import annotations

from app.rulesets import RulesetUI
from app.rulesets.form_ui import FormRulesetUI
from app.rulesets.seed003.log_lines import LOG_LINES
from rules.battle.state import BattleState
from rules.sets.attack_form import FormAttacks
from rules.sets.seed003.ruleset import seed003_ruleset


def _form_of(state: BattleState) -> FormAttacks:
    return seed003_ruleset(state.ruleset_options).attacks


SEED003_UI: RulesetUI = FormRulesetUI(_form_of, LOG_LINES)
