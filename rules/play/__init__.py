"""The computer's play: policies that choose a fighter's next action from the
ruleset's legal actions by exact odds (``rules.play.policies``), and the driver
that plays a battle with them to its end (``rules.play.autoplay``).

Ruleset-neutral: it reads a ruleset only through the protocol
(``rules.sets.protocol``) and the registry, never a ruleset's own package."""
