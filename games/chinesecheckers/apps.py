from django.apps import AppConfig


class ChineseCheckersConfig(AppConfig):
    name = "games.chinesecheckers"
    label = "chinesecheckers"

    def ready(self) -> None:
        from games.chinesecheckers.rules import RULES
        from turnengine import registry

        registry.register(RULES)
        self.verbose_name = RULES.name
