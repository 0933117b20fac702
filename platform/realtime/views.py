"""The embedded default's relay endpoint: the Celery worker (another process, which cannot reach this process's
in-memory channel layer) posts the frames it committed here (``broadcast.broadcast_sync``), authenticated by
``TAPETE_RELAY_TOKEN``."""

from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseForbidden
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from realtime.broadcast import RELAY_HEADER, broadcast, relayed


@csrf_exempt
@require_POST
def relay(request):
    """Frames committed by the Celery worker process, sent on to this process's sockets."""
    token = settings.TAPETE_RELAY_TOKEN
    if not token or not constant_time_compare(request.headers.get(RELAY_HEADER, ""), token):
        return HttpResponseForbidden()
    try:
        update = relayed(request.body)
    except ValueError:  # json's errors included
        return HttpResponseBadRequest()
    async_to_sync(broadcast)(update)
    return HttpResponse(status=204)
