"""Seed 002: OpenQuest's d100 combat tables as a playable ruleset (docs/ruleset-002.md)."""
