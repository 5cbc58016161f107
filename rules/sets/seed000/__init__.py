"""Seed 000, the 3d6 melee house rules, with seed 001's hit locations and striking
at weapons as its ``locations-001`` option."""
