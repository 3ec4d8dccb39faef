"""The HTML part of a mail: the text escaped, its addresses links, a picture before the signature."""

from __future__ import annotations

from dipserver.mail.html import SIGNATURE, html_of


def test_the_text_is_escaped_and_its_addresses_are_links():
    html = html_of('Press: <b>"Hi" & bye</b>\nhttps://dip.example.org/games/1/?a=1&b=2\n\nNext')
    assert "<p>Press: &lt;b&gt;&quot;Hi&quot; &amp; bye&lt;/b&gt;<br>\n" in html
    url = "https://dip.example.org/games/1/?a=1&amp;b=2"
    assert f'<a href="{url}">{url}</a></p>' in html
    assert "<p>Next</p>" in html and "<b>" not in html and "<img" not in html


def test_the_picture_comes_after_the_text_and_before_the_unsubscribe_line():
    text = f"Results{SIGNATURE}No more mails like this (phase results): https://dip.example.org/u/x/\n"
    html = html_of(text, image_cid="1.map@dipserver", image_alt='Map "S1901M"', width=600)
    picture = '<img src="cid:1.map@dipserver" alt="Map &quot;S1901M&quot;" width="600"'
    assert html.index("<p>Results</p>") < html.index(picture) < html.index("<hr>")
    assert html.index("<hr>") < html.index('<a href="https://dip.example.org/u/x/">')
