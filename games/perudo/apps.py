from django.apps import AppConfig


class PerudoConfig(AppConfig):
    name = "games.perudo"
    label = "perudo"

    def ready(self) -> None:
        from tapete_sdk import registry

        from games.perudo.rules import RULES

        registry.register(RULES)
        self.verbose_name = RULES.name
