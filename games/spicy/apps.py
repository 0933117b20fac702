from django.apps import AppConfig


class SpicyConfig(AppConfig):
    name = "games.spicy"
    label = "spicy"

    def ready(self) -> None:
        from tapete_sdk import registry

        from games.spicy.rules import RULES

        registry.register(RULES)
        self.verbose_name = RULES.name
