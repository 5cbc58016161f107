"""Ruleset-neutral primitives: dice, modifiers, the event base, citations, errors,
JSON loading and the bundled assets. Imports nothing else of ``rules``."""
