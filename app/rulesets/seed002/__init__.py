"""Seed 002's widgets: the generic attack form pane and its log lines."""
