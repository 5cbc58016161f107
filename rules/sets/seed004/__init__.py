"""Seed 004 as a ruleset: the damage chapter of the Endless Horizons RPG (2d6 hit
zones with damage multipliers, aiming by size steps, the bone protection of a
human's vital organs) on that system's base rules (2d6 plus bonuses against a
difficulty, Melee Combat against Dodge, the block that halves damage, hit
points, wounds). docs/ruleset-004.md lists every rule and every decision."""
