"""The HTML part of a mail: its text, escaped, paragraph for paragraph, its addresses as links, and a
picture shown inline (``cid:``) before the signature that holds the unsubscribe link."""

from __future__ import annotations

import re
from html import escape

# The outbox puts this before the unsubscribe line it adds to a mail's text.
SIGNATURE = "\n\n--\n"
_URL = re.compile(r"https?://\S+")


def _inline(text: str) -> str:
    """One paragraph: escaped, addresses as links, line breaks kept."""
    out, last = [], 0
    for match in _URL.finditer(text):
        url = match.group()
        out += [escape(text[last : match.start()]), f'<a href="{escape(url)}">{escape(url)}</a>']
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out).replace("\n", "<br>\n")


def _paragraphs(text: str) -> list[str]:
    return [f"<p>{_inline(p.strip())}</p>" for p in re.split(r"\n\s*\n", text) if p.strip()]


def html_of(text: str, *, image_cid: str | None = None, image_alt: str = "", width: int = 0) -> str:
    """The mail's text as an HTML document; the image ``cid:image_cid`` after the text, if given."""
    main, separator, signature = text.partition(SIGNATURE)
    body = _paragraphs(main)
    if image_cid is not None:
        size = f' width="{width}"' if width else ""
        body.append(
            f'<p><img src="cid:{escape(image_cid)}" alt="{escape(image_alt)}"{size}'
            ' style="max-width: 100%; height: auto;"></p>'
        )
    if separator:
        body += ["<hr>", *_paragraphs(signature)]
    lines = "\n".join(body)
    return (
        f'<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n<body>\n{lines}\n</body>\n</html>\n'
    )
