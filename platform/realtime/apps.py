"""The real-time transport's app: on start, it becomes the sender of the frames the engine's writers register."""

from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    name = "realtime"

    def ready(self) -> None:
        from realtime import broadcast
        from turnengine import outbox

        # What the engine's writers commit goes out through here.
        outbox.install_sender(broadcast.broadcast_sync)
