"""Seed 003's UI: the generic attack form pane, its log lines."""
