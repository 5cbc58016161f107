"""The rulesets: one package per ruleset behind the ``Ruleset`` protocol."""
