"""``{% bot_api_section player %}``: the profile's Bot API section (tokens, bot account), for its owner only."""

from django import template

from botapi.accounts import bot_account_refusal
from botapi.errors import message_for
from botapi.models import SCOPES
from botapi.tokens import token_list

register = template.Library()


@register.inclusion_tag("botapi/_profile.html", takes_context=True)
def bot_api_section(context, player):
    user = context["request"].user
    if not user.is_authenticated or user.pk != player.pk:
        return {"show": False}
    refusal = bot_account_refusal(player)
    return {
        "show": True,
        "player": player,
        "csrf_token": context.get("csrf_token"),
        "api_tokens": token_list(user=player),
        "api_scopes": list(SCOPES.items()),
        "bot_refusal": message_for(refusal) if refusal and refusal != "already_bot" else None,
    }

