"""The site's Content-Security-Policy allows no inline style. A map SVG opened on its own (a download,
a new tab) is a document under that policy too, so its answer allows exactly the map's own stylesheet,
by its SHA-256 (a CSP Level 2 hash source), and nothing else inline."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import TypeVar

from django.http import HttpResponseBase

_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)
_Response = TypeVar("_Response", bound=HttpResponseBase)


def style_hash(css: str) -> str:
    """The hash source of a ``<style>`` element with this text, as style-src takes it."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(css.encode()).digest()).decode() + "'"


def stylesheets_of(svg: str) -> list[str]:
    return _STYLE.findall(svg)


def styles_allowed(response: _Response, stylesheets: list[str]) -> _Response:
    """``response`` with these stylesheets, inline, added to its policy's style-src (django-csp)."""
    if stylesheets:
        response._csp_update = {"style-src": [style_hash(css) for css in stylesheets]}  # type: ignore[attr-defined]
    return response
