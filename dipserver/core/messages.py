"""Django's message middleware, its storage made when something first uses it.

``MessageMiddleware`` builds the message storage for every request (a cookie storage with its signer and
a session storage: about 3 % of an order PUT's CPU), though only the site's pages ever add or show a
message. Here the request gets a lazy storage; one that nothing used is left alone at the response, where
Django's would have found nothing to store (a storage neither read nor added to stores nothing).
"""

from __future__ import annotations

import functools

from django.contrib.messages import middleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty


class MessageMiddleware(middleware.MessageMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(functools.partial(default_storage, request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        storage = getattr(request, "_messages", None)
        if type(storage) is SimpleLazyObject and storage._wrapped is empty:  # type: ignore[attr-defined]
            return response
        return super().process_response(request, response)
