"""Every refusal that travels to a player or a program (the rules', the engine's, the lobby's, the Bot API's) is a
``tapete_sdk.plugin.CodedError``: a stable code and a message in the reader's language, built one way."""

import ast
from pathlib import Path

from django.utils import translation
from tapete_sdk.plugin import CodedError, IllegalAction

from botapi.accounts import BotAccountError
from botapi.errors import ApiError
from botapi.tokens import TokenError
from lobby.errors import LobbyError
from turnengine.errors import EngineError, engine_error

PLATFORM = Path(__file__).resolve().parent.parent / "platform"


def test_each_refusal_is_a_coded_error_with_its_message_in_the_current_language():
    refusals = [
        IllegalAction("not_your_turn", "it is not your turn"),
        engine_error("stale"),
        LobbyError("table_full"),
        ApiError("missing_token"),
        TokenError("invalid_scopes"),
        BotAccountError("already_bot"),
    ]
    for refusal in refusals:
        assert isinstance(refusal, CodedError) and refusal.message and refusal.as_dict()["code"] == refusal.code
    english = ApiError("missing_token").message
    with translation.override("fr"):
        assert LobbyError("table_full").message == "Cette table est complète."
        french = ApiError("missing_token")
        assert french.message != english and french.body() == {"code": "missing_token", "message": french.message}
    assert isinstance(engine_error("stale"), EngineError)


def test_no_error_class_of_the_platform_carries_a_code_outside_the_base():
    """A class that stores ``self.code`` and is not a CodedError would be a second way of refusing."""
    found = []
    for path in sorted(PLATFORM.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ClassDef):
                continue
            stores_code = any(
                isinstance(target, ast.Attribute) and target.attr == "code"
                for inner in ast.walk(node)
                if isinstance(inner, ast.Assign)
                for target in inner.targets
            )
            if stores_code:
                found.append(f"{path.relative_to(PLATFORM)}:{node.name}")
    assert found == []
