"""Django's ``{# #}`` comments end on the line they start on: one that runs on reaches the page as text. A
comment of more than one line is ``{% comment %}``."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted([*ROOT.glob("templates/**/*.html"), *ROOT.glob("dipserver/**/templates/**/*.html")])


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_comment_runs_past_its_line(template: Path) -> None:
    unclosed = [
        number
        for number, line in enumerate(template.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]

    assert unclosed == [], f"a {{# comment runs past its line at lines {unclosed}: use {{% comment %}}"
