"""Every refusal (the rules', the engine's, the lobby's, the Bot API's and moderation's) is a
``tapete_sdk.plugin.CodedError``: a stable code and a message in the reader's language, built one way."""

import ast
from pathlib import Path

import pytest
from django.utils import translation
from tapete_sdk.plugin import CodedError, IllegalAction, InvalidOptions, MalformedAction, RulesError

from botapi.accounts import BotAccountError
from botapi.errors import ApiError
from botapi.tokens import TokenError
from lobby.errors import LobbyError
from moderation.services import ReasonRequired, Refused
from turnengine.errors import EngineError, engine_error

PLATFORM = Path(__file__).resolve().parents[2] / "platform"


@pytest.mark.parametrize(
    "error",
    [
        IllegalAction("bid_too_low", "a bid on 5s needs at least 3 dice"),
        MalformedAction("unknown_action", "the only action is a mark"),
        InvalidOptions("option_range", "too many"),
        engine_error("stale", version=3),
        LobbyError("table_full"),
        ApiError("missing_token"),
        TokenError("invalid_scopes"),
        BotAccountError("already_bot"),
        Refused("already_hidden", "This chat line is already hidden."),
        ReasonRequired(),
    ],
    ids=lambda error: type(error).__name__,
)
def test_every_refusal_is_a_coded_error_with_its_code_and_message(error):
    assert isinstance(error, CodedError)
    assert error.as_dict() == {"code": error.code, "message": error.message} and error.message
    assert str(error) == f"{error.code}: {error.message}"


def test_the_engine_frame_carries_the_version_when_it_matters():
    assert engine_error("stale", version=3).as_frame_data()["version"] == 3
    assert "version" not in engine_error("not_seated").as_frame_data()
    assert not issubclass(EngineError, RulesError) and not issubclass(LobbyError, RulesError)


def test_a_lobby_error_speaks_the_current_language():
    with translation.override("fr"):
        assert LobbyError("table_full").message == "Cette table est complète."


def test_a_bot_api_error_body_speaks_the_current_language():
    english = ApiError("missing_token").message
    with translation.override("fr"):
        french = ApiError("missing_token", version=4)
    assert french.message != english
    assert french.body() == {"code": "missing_token", "message": french.message, "version": 4}


def test_no_class_of_the_platform_keeps_a_code_outside_the_base():
    """A class that stores ``self.code`` and is not a CodedError would be a second way of refusing."""
    found = []
    for path in sorted(PLATFORM.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(target, ast.Attribute) and target.attr == "code"
                for inner in ast.walk(node)
                if isinstance(inner, ast.Assign)
                for target in inner.targets
            ):
                found.append(f"{path.relative_to(PLATFORM)}:{node.name}")
    assert found == []
