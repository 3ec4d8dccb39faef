"""``{% module_script "js/game.js" %}`` and ``{% module_preload ... %}``: a page's scripts, bundled when the
bundle is current (dipserver/web/bundle.py), else the plain ES modules.

``module_script`` writes the ``<script type="module">`` tag, after a ``modulepreload`` link for each chunk
the bundled file imports, so the browser asks for them all at once instead of one import level at a
time. ``module_preload`` writes the links alone, for a page's ``<head>``: its scripts are then asked for
beside its stylesheets.
"""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.contrib.staticfiles.storage import StaticFilesStorage
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from dipserver.web import bundle

register = template.Library()


@functools.cache
def _built_once() -> dict[str, bundle.PageScript] | None:
    scripts = bundle.built()
    if scripts is None:
        bundle.log.warning(
            "The scripts' bundle (static/dist/) is missing or older than static/js: the pages load the plain "
            "ES modules. ./dip builds it (node and npm needed)."
        )
    return scripts


def _scripts() -> dict[str, bundle.PageScript] | None:
    if not settings.DIPSERVER_BUNDLED_SCRIPTS:
        return None
    # Read once per process, but afresh on every page under DEBUG, where the sources change as you work.
    return bundle.built() if settings.DEBUG else _built_once()


_PLAIN = StaticFilesStorage()  # addresses without collectstatic's hashes


def _url(name: str) -> str:
    """The address of a file under static/. A bundled file's own: its name carries its content's hash
    already, and its chunks import one another by these names (a second hash from collectstatic's
    manifest would make a preloaded chunk another address than the one imported, fetched twice)."""
    return _PLAIN.url(name) if name.startswith(bundle.DIST_PREFIX) else static(name)


def _preloads(names: list[str]) -> SafeString:
    unique = list(dict.fromkeys(names))
    return format_html_join("", '<link rel="modulepreload" href="{}">', ((_url(n),) for n in unique))


@register.simple_tag
def module_script(name: str) -> SafeString:
    """The page script ``name`` (as under static/, e.g. ``js/game.js``) with its chunks preloaded."""
    script = bundle.page_script(name, _scripts())
    tag = format_html('<script type="module" src="{}"></script>', _url(script.file))
    return _preloads(list(script.imports)) + tag


@register.simple_tag
def module_preload(*names: str) -> SafeString:
    """``modulepreload`` links for the page scripts ``names`` and every chunk they import."""
    scripts = _scripts()
    files: list[str] = []
    for name in names:
        script = bundle.page_script(name, scripts)
        files += [script.file, *script.imports]
    return _preloads(files)
