from django.apps import AppConfig


class PerudoConfig(AppConfig):
    name = "games.perudo"
    label = "perudo"

    def ready(self) -> None:
        from games.perudo.rules import RULES
        from turnengine import registry

        registry.register(RULES)
        self.verbose_name = RULES.name
