"""Components shared by several rulesets: hit locations (seed 003's FUDGE
locations, seed 004's 2d6 zones) and the legal actions every ruleset lists
(legal_actions). Neutral and pure, they import only rules.core, rules.battle and
the protocol (rules.sets.protocol), never a ruleset package."""
