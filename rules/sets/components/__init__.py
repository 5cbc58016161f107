"""Hit-location components shared by several rulesets (seed 003's FUDGE locations,
seed 004's 2d6 zones): neutral and pure, they import only rules.core and
rules.battle, never a ruleset package."""
