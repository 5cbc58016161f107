"""Seed 003: FUDGE optional rule 5.87, hit location in combat, played on the
FUDGE SRD's base rules (docs/ruleset-003.md)."""
