"""The map: its view, painters, drops and animations."""
