"""The site's Content-Security-Policy allows no inline style. A map SVG opened on its own (a download,
a new tab) is a document under that policy too, so its answer allows exactly the map's own stylesheet,
by its SHA-256 (a CSP Level 2 hash source), and nothing else inline. The header itself is written by
:class:`PolicyMiddleware`."""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from typing import Any, TypeVar

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

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


# What a view sets on its answer to change the policy (django-csp's decorators, styles_allowed).
_PER_ANSWER = tuple(f"_csp_{part}{ro}" for part in ("config", "update", "replace") for ro in ("", "_ro"))


class PolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the policy built once: an answer whose view changed nothing in it
    (no nonce asked for, no per-view config, update or replace: nearly every answer) gets the headers
    django-csp would build for it, under the same conditions. Building them costs about 4 % of an order
    PUT's CPU. Any other answer goes through django-csp unchanged."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in _PER_ANSWER
        ):
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:
            return response  # django-csp leaves the debug pages alone
        for header, policy, exempt, prefixes in _policies():
            fitting = getattr(response, exempt, False) is False and not request.path_info.startswith(prefixes)
            if policy and header not in response and fitting:
                response[header] = policy
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


@functools.cache
def _policies() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """(header, policy, exemption attribute, excluded prefixes) of the policy and its report-only twin."""
    rows = []
    for header, setting, exempt, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", "_csp_exempt", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro", True),
    ):
        prefixes = tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ())
        rows.append((header, build_policy(report_only=report_only), exempt, prefixes))
    return tuple(rows)


@receiver(setting_changed)
def _policies_forget(*, setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _policies.cache_clear()
