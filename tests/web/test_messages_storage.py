"""The site's message middleware (``dipserver.core.messages``) builds the message storage only when a
request uses it, and messages still go from the request that adds them to the one that shows them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse
from django.utils.functional import empty

from dipserver.core.messages import MessageMiddleware


def _through(view):
    return SessionMiddleware(MessageMiddleware(view))


def test_a_message_added_is_shown_by_the_next_request(rf, db):
    def adds(request):
        messages.info(request, "Orders saved.")
        return HttpResponse("ok")

    def shows(request):
        return HttpResponse(" | ".join(str(m) for m in messages.get_messages(request)))

    added = _through(adds)(rf.get("/"))
    later = rf.get("/")
    later.COOKIES["messages"] = added.cookies["messages"].value
    assert _through(shows)(later).content == b"Orders saved."


def test_a_request_that_uses_no_message_builds_no_storage(rf, db):
    request = rf.get("/api/v1/games")
    response = _through(lambda request: HttpResponse("ok"))(request)
    assert request._messages._wrapped is empty
    assert "messages" not in response.cookies
