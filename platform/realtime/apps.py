from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    name = "realtime"

    def ready(self) -> None:
        from realtime import broadcast
        from turnengine import outbox

        outbox.install_sender(
            broadcast.broadcast_sync
        )  # what the engine's writers commit goes out through here
