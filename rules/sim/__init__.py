"""Simulated battles: one battle played by the computer as fast as the rules allow,
its outcome equal to the GM path's (issue 26)."""
