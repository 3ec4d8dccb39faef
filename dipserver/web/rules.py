"""A variant's rules in plain words, from the "In plain words" section of ``docs/rules/<slug>.md``.

Those files use a small part of Markdown (paragraphs, ``*`` bullets, ``**bold**``, ``*italic*``, ``code``
and links), so that part is converted here rather than adding a Markdown dependency for one section.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

SECTION = "## In plain words"
_INLINE = [
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\[([^\]]+)\]\([^)]+\)"), r"\1"),  # links point into docs/, which the site does not serve
]


def rules_path(slug: str) -> Path:
    return settings.BASE_DIR / "docs" / "rules" / f"{slug.replace('_', '-')}.md"


def plain_words_html(slug: str) -> SafeString:
    """The section as HTML, or an empty string when the variant has no rules page."""
    path = rules_path(slug)
    if not path.is_file():
        return mark_safe("")
    text = path.read_text(encoding="utf-8")
    start = text.find(SECTION)
    if start < 0:
        return mark_safe("")
    body = text[start + len(SECTION) :]
    end = body.find("\n## ")
    return markdown_lite(body if end < 0 else body[:end])


def markdown_lite(text: str) -> SafeString:
    """Paragraphs and bullet lists; every piece of text is escaped before any tag is added."""
    html: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if lines and lines[0].startswith(("* ", "- ")):
            items: list[str] = []
            for line in lines:
                if line.startswith(("* ", "- ")):
                    items.append(line[2:].strip())
                elif items:
                    items[-1] += " " + line.strip()
            html.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
        elif block.strip():
            html.append(f"<p>{_inline(' '.join(line.strip() for line in lines))}</p>")
    return mark_safe("\n".join(html))  # built from escaped text only


def _inline(text: str) -> str:
    out: str = escape(text)  # safe from here on, though re.sub gives back a plain str
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out
