"""Public, read-only match data: the full action log of a finished match, with its published seed, so anyone can
re-derive every roll and shuffle and replay the game."""

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404

from turnengine.models import Match


def match_log(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    if not match.seed_is_public:
        raise Http404("The log is published when the match ends.")
    actions = match.actions.order_by("step").values("step", "seat", "action")
    return JsonResponse(
        {
            "match_id": match.pk,
            "game": match.game,
            "num_players": match.num_players,
            "options": match.options,
            "seed": match.seed,
            "seed_hash": match.seed_hash,
            "chance_rng": "random.Random(f'{seed}:{step}')",
            "result": match.result,
            "actions": list(actions),
        }
    )
