"""Rules, engine and lobby refusals share one coded-error base: a stable code and a readable message."""

import pytest
from django.utils import translation
from tapete_sdk.plugin import CodedError, IllegalAction, InvalidOptions, MalformedAction, RulesError

from lobby.errors import LobbyError
from turnengine.errors import EngineError, engine_error


@pytest.mark.parametrize(
    "error",
    [
        IllegalAction("bid_too_low", "a bid on 5s needs at least 3 dice"),
        MalformedAction("unknown_action", "the only action is a mark"),
        InvalidOptions("option_range", "too many"),
        engine_error("stale", version=3),
        LobbyError("table_full"),
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
