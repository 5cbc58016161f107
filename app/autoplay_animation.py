"""Auto-play's moves and blows on the map (app.map.action_animation), tied to the
Auto-play menu's run and speed: animated while a run goes at a speed with a pace
(watchable, quick; instant has none), the next decision waiting for them, and
dropped at once when the GM pauses (an undo or another battle drops them in the
map itself)."""

from __future__ import annotations

from app.autoplay_menu import AutoPlay
from app.map.action_animation import PACES, Pace
from app.map.view import MapView

# A short beat after the animations, before the next decision.
BEAT_MS = 250


def animate_auto_play(auto_play: AutoPlay, view: MapView) -> None:
    def pace() -> Pace | None:
        return PACES.get(auto_play.speed) if auto_play.running else None

    def animation_ms() -> int:
        left = view.action_animator.remaining_ms()
        return left + BEAT_MS if left else 0

    view.action_pace = pace
    auto_play.animation_ms = animation_ms
    auto_play.pause_action.triggered.connect(view.skip_action_animation)
