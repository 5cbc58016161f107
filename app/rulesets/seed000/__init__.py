"""Seed 000's widgets: its attack pane, its part of the inspector and its log
lines, which ``app.rulesets`` finds by the key "000"."""
