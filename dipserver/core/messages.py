"""Django's message middleware, its storage made when something first uses it.

``MessageMiddleware`` builds the message storage for every request (a cookie storage with its signer and
a session storage: about 3 % of an order PUT's CPU), though only the site's pages ever add or show a
message. Here the request gets a lazy storage; one that nothing used is left alone at the response, where
Django's would have found nothing to store (a storage neither read nor added to stores nothing).
"""

from __future__ import annotations

from django.contrib.messages import middleware
from django.contrib.messages.storage import default_storage
from django.contrib.messages.storage.base import BaseStorage
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject


class MessageMiddleware(middleware.MessageMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        made: list[bool] = []  # whether the storage was made, i.e. used

        def storage() -> BaseStorage:
            made.append(True)
            return default_storage(request)

        # (``request._messages`` is where Django's own middleware puts the storage for messages.api.)
        request._messages = SimpleLazyObject(storage)  # type: ignore[attr-defined]
        request.dipserver_messages_made = made  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if getattr(request, "dipserver_messages_made", None) == []:
            return response
        return super().process_response(request, response)
