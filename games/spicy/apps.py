from django.apps import AppConfig


class SpicyConfig(AppConfig):
    name = "games.spicy"
    label = "spicy"

    def ready(self) -> None:
        from games.spicy.rules import RULES
        from turnengine import registry

        registry.register(RULES)
        self.verbose_name = RULES.name
