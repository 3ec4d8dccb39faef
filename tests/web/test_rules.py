"""The small Markdown subset of the rules pages becomes safe HTML."""

from dipserver.web.rules import markdown_lite


def test_bullets_paragraphs_and_emphasis():
    html = markdown_lite("Intro *here*.\n\n* **Bold** item\n  continued\n* `F NAO stays fleet`")
    assert html == (
        "<p>Intro <em>here</em>.</p>\n"
        "<ul><li><strong>Bold</strong> item continued</li><li><code>F NAO stays fleet</code></li></ul>"
    )


def test_text_is_escaped_before_markup_is_added():
    html = markdown_lite("<script>x</script> [link](docs/x.md)")
    assert html == "<p>&lt;script&gt;x&lt;/script&gt; link</p>"
