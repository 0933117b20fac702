"""Wrong-method calls to the Bot API answer like every other API error: ``{"code": "method_not_allowed", ...}``.

django-ninja answers a known address called with a method it does not serve with Django's bare
``HttpResponseNotAllowed``, before any of the API's exception handlers run; this middleware gives that answer the
API's coded body and keeps its ``Allow`` header.
"""

from __future__ import annotations

from django.http import JsonResponse

from botapi.errors import ApiError

API_PREFIX = "/api/"


class CodedMethodNotAllowed:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or not request.path.startswith(API_PREFIX):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        error = ApiError("method_not_allowed")
        coded = JsonResponse(error.body(), status=error.status)
        if response.has_header("Allow"):
            coded["Allow"] = response["Allow"]
        return coded
