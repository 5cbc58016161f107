"""The ruleset-neutral battle: its state, the commands that change it, replay,
movement and facing, items on the ground, terrain and scatter tracing."""
