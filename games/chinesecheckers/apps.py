from django.apps import AppConfig


class ChineseCheckersConfig(AppConfig):
    name = "games.chinesecheckers"
    label = "chinesecheckers"

    def ready(self) -> None:
        from tapete_sdk import registry

        from games.chinesecheckers.rules import RULES

        registry.register(RULES)
        self.verbose_name = RULES.name
