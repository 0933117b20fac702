"""Request and response shapes of the Bot API (pydantic models through django-ninja: they make the OpenAPI
schema and validate every request body and query before a view runs)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import AfterValidator

from turnengine import clocks
from web.text import has_control_character


def _printable(text: str) -> str:
    if has_control_character(text):
        raise ValueError("control characters are not allowed")
    return text


# A name or key a client types (a game, a time control, a level): no control character reaches a query.
Text = Annotated[str, AfterValidator(_printable)]


class Error(Schema):
    code: str = Field(description="A stable code: see docs/bot-api.md")
    message: str
    version: int | None = Field(None, description="The table's current version, when it matters")
    rule: str | None = Field(None, description="The game's own reason for refusing an action")
    detail: Any = None


class Account(Schema):
    username: str
    bot: bool = Field(description="A bot account (sits only at tables open to bot accounts)")
    scopes: list[str]
    token_name: str


class Option(Schema):
    name: str
    kind: str
    default: Any
    label: str
    help: str
    choices: list[Any] | None = None
    minimum: int | None = None
    maximum: int | None = None


class Game(Schema):
    key: str
    name: str
    min_players: int
    max_players: int
    options: list[Option]
    bot_levels: list[str] = Field(description="The site's computer players you may seat at your table")
    time_controls: list[str]


class SeatOut(Schema):
    seat: int
    username: str
    bot: bool


class Table(Schema):
    id: int
    game: str
    status: Literal["open", "active", "finished", "aborted"]
    num_players: int
    options: dict[str, Any]
    ranked: bool
    allow_bots: bool
    time_control: str | None
    created_by: str
    seats: list[SeatOut]
    your_seat: int | None
    version: int
    result: dict[str, Any] | None = Field(None, description="Once finished: the ranking and its reason")
    websocket: str = Field(description="The table's websocket path (docs/protocol.md)")


class TableFilter(Schema):
    game: Text | None = None
    status: Literal["open", "active", "finished"] = "open"
    mine: bool = Field(False, description="Only the tables you sit at")


class TableCreate(Schema):
    game: Text
    num_players: int = Field(ge=2, le=6)
    options: dict[str, Any] = {}
    ranked: bool = False
    time_control: Text = clocks.DEFAULT_PROFILE
    min_rating: int | None = Field(None, ge=0, le=4000)
    max_rating: int | None = Field(None, ge=0, le=4000)
    allow_bots: bool = Field(False, description="Admit bot accounts (a bot account's own tables always do)")


class Join(Schema):
    seat: int | None = Field(None, ge=0, le=5)


class AddBot(Schema):
    level: Text
    seat: int | None = Field(None, ge=0, le=5)


class Move(Schema):
    version: int = Field(ge=0, description="The version your action answers (the v of your latest view)")
    action: dict[str, Any] = Field(description="One of your seat's legal actions, as listed in the view")


class Frame(Schema):
    t: str
    v: int | None
    d: dict[str, Any]


class Note(Schema):
    step: int
    version: int = Field(description="The replay step (the match version) of the move")
    seat: int
    text: str


class Highlight(Schema):
    version: int = Field(description="The replay step (the match version) of the moment")
    text: str


class AnalysisOut(Schema):
    match_id: int
    game: str
    summary: list[str] = Field(description="The match in a few sentences, in the request's language")
    notes: list[Note] = Field(description="A sentence beside each analysed move")
    highlights: list[Highlight] = Field(description="Moments worth a look, if the game points any out")
    data: dict[str, Any] = Field(description="The numbers: per move and per player (see docs/bot-api.md)")
