"""DRF's content negotiation, each answer remembered: the renderer it picks depends only on the Accept
header, the format asked for and the view's renderer classes, and parsing the header costs ~4 % of an
order PUT's CPU, though nearly every client sends the same one or two headers."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

_MAX_ENTRIES = 256  # distinct (Accept, format, renderers) seen: odd headers from a client only evict
_MAX_ACCEPT = 200  # a longer header (browsers send ~100 characters) is negotiated afresh, not kept
_chosen: OrderedDict[tuple[Any, ...], tuple[int, str]] = OrderedDict()
_lock = threading.Lock()


class RememberingContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        choices = list(renderers)
        accept = request.META.get("HTTP_ACCEPT", "*/*")
        if len(accept) > _MAX_ACCEPT:
            return self._negotiated(request, choices, format_suffix)
        format_asked = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        key = (accept, format_asked, tuple(type(r) for r in choices))
        with _lock:
            hit = _chosen.get(key)
            if hit is not None:
                _chosen.move_to_end(key)
        if hit is None:
            renderer, media_type = self._negotiated(request, choices, format_suffix)  # or 406, 404
            hit = (choices.index(renderer), media_type)
            with _lock:
                _chosen[key] = hit
                while len(_chosen) > _MAX_ENTRIES:
                    _chosen.popitem(last=False)
        return choices[hit[0]], hit[1]

    def _negotiated(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None
    ) -> tuple[BaseRenderer, str]:
        renderer, media_type = super().select_renderer(request, renderers, format_suffix)
        return renderer, str(media_type)
