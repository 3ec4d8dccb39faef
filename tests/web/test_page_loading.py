"""How the game page reaches the browser: its scripts bundled by the build step (esbuild, content-hashed
names, plain ES modules without a current bundle), the API's first answers inside the page, and the map
SVG compressed with its cache headers."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dipserver.games.services.phases import phase_process
from dipserver.web import bundle
from tests.web.conftest import seat_of

pytestmark = pytest.mark.django_db

HASHED = re.compile(r"/static/dist/[a-z]+-[A-Z0-9]{8}\.js")


def needs_the_build_tools() -> None:
    """The build step needs node and the npm packages ./dip installs (npm ci): a test of it skips without
    them on a developer's machine, and fails in CI."""
    problem = None
    if not shutil.which("node"):
        problem = "node is missing (the scripts' build step needs it)"
    elif not (bundle.ROOT / "node_modules" / "esbuild").is_dir():
        problem = "esbuild is not installed: ./dip runs npm ci"
    if problem and os.environ.get("CI"):
        pytest.fail(problem, pytrace=False)
    if problem:
        pytest.skip(problem)


def first_answers(html: str) -> dict:
    found = re.search(r'<script id="first-answers" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the game page carries the API's first answers"
    return json.loads(found.group(1))


def scripts_of(html: str) -> list[str]:
    return re.findall(r'<script type="module" src="([^"]+)"', html)


# --- the build step ---------------------------------------------------------------------------------


def test_the_build_bundles_each_page_script_minified_under_a_content_hashed_name(tmp_path):
    needs_the_build_tools()
    out = tmp_path / "dist"
    subprocess.run(["node", "scripts/build_scripts.mjs", str(out)], cwd=bundle.ROOT, check=True, timeout=120)
    manifest = json.loads((out / "manifest.json").read_text())
    # Every page script a template loads is bundled, and nothing else.
    templates = bundle.ROOT / "templates"
    named = {
        m for t in templates.rglob("*.html") for m in re.findall(r'module_script "([^"]+)"', t.read_text())
    }
    assert set(manifest["entries"]) == named
    game = manifest["entries"]["js/game.js"]
    assert re.fullmatch(r"dist/game-[A-Z0-9]{8}\.js", game["file"])
    text = (out / Path(game["file"]).name).read_text()
    assert "dip-interactive" in text and "\n  " not in text, "one bundle, minified"
    for chunk in game["imports"]:
        assert (out / Path(chunk).name).is_file()
    assert manifest["digest"] == bundle.digest(manifest["sources"]), "Python and node agree on the digest"


def test_the_bundle_that_dip_built_is_current():
    needs_the_build_tools()
    assert bundle.up_to_date(), "./dip builds the bundle when a script changed"


def _fake_build(root: Path) -> None:
    (root / "static" / "js").mkdir(parents=True)
    (root / "static" / "dist").mkdir()
    (root / "static" / "js" / "page.js").write_text("export const a = 1;\n")
    sources = ["static/js/page.js"]
    manifest = {
        "digest": bundle.digest(sources, root),
        "sources": sources,
        "entries": {"js/page.js": {"file": "dist/page-ABCD2345.js", "imports": ["dist/chunk-EFGH6789.js"]}},
    }
    (root / bundle.MANIFEST).write_text(json.dumps(manifest))


def test_a_current_bundle_names_each_page_scripts_file_and_chunks(tmp_path):
    _fake_build(tmp_path)
    scripts = bundle.built(tmp_path)
    assert scripts == {"js/page.js": bundle.PageScript("dist/page-ABCD2345.js", ("dist/chunk-EFGH6789.js",))}


def test_a_bundle_older_than_a_source_is_not_used(tmp_path):
    _fake_build(tmp_path)
    (tmp_path / "static" / "js" / "page.js").write_text("export const a = 2;\n")
    assert bundle.built(tmp_path) is None and not bundle.up_to_date(tmp_path)


def test_without_a_build_the_page_script_is_the_plain_module(tmp_path):
    assert bundle.built(tmp_path) is None
    assert bundle.page_script("js/game.js", None) == bundle.PageScript("js/game.js")


def test_a_page_script_the_build_does_not_list_loads_as_a_plain_module():
    scripts = {"js/game.js": bundle.PageScript("dist/game-ABCD2345.js")}
    assert bundle.page_script("js/other.js", scripts) == bundle.PageScript("js/other.js")


# --- the pages' script tags ---------------------------------------------------------------------------


def test_the_game_page_loads_its_bundled_scripts_and_preloads_their_chunks(client, sahara):
    needs_the_build_tools()
    html = client.get(f"/games/{sahara.id}/").content.decode()
    scripts = scripts_of(html)
    assert len(scripts) == 3 and all(HASHED.fullmatch(s) for s in scripts), scripts
    built = bundle.built()
    # Every chunk the page's own scripts import (other pages' scripts share chunks of their own).
    page = [entry for entry in built.values() if f"/static/{entry.file}" in scripts]
    assert len(page) == 3
    chunks = [c for entry in page for c in entry.imports]
    assert chunks, "the game page's scripts share code in chunks"
    for chunk in set(chunks):
        assert f'<link rel="modulepreload" href="/static/{chunk}">' in html
    assert "/static/js/" not in html


def test_with_bundling_off_the_pages_load_the_plain_modules(client, sahara, settings):
    settings.DIPSERVER_BUNDLED_SCRIPTS = False
    html = client.get(f"/games/{sahara.id}/").content.decode()
    assert scripts_of(html) == ["/static/js/time.js", "/static/js/game.js", "/static/js/actions.js"]
    assert '<link rel="modulepreload" href="/static/js/game.js">' in html
    assert "/static/dist/" not in html


@pytest.mark.parametrize("page", ["/games/new/", "/variants/sahara/"])
def test_every_page_loads_its_scripts_the_same_way(client, players, page, settings):
    needs_the_build_tools()
    client.force_login(players[0])
    assert all(HASHED.fullmatch(s) for s in scripts_of(client.get(page).content.decode()))
    settings.DIPSERVER_BUNDLED_SCRIPTS = False
    assert all(s.startswith("/static/js/") for s in scripts_of(client.get(page).content.decode()))


def test_a_bundled_script_is_cached_for_good(client, db):
    needs_the_build_tools()
    name = bundle.built()["js/game.js"].file
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert "immutable" in response["Cache-Control"] and "max-age=315360000" in response["Cache-Control"]


# --- the first answers ----------------------------------------------------------------------------------


def test_a_player_s_page_carries_the_api_s_own_answers_for_the_game_my_options_and_orders(client, sahara):
    client.force_login(seat_of(sahara, "TURKEY").user)
    api = f"/api/v1/games/{sahara.id}"
    answers = first_answers(client.get(f"/games/{sahara.id}/").content.decode())
    assert set(answers) == {api, f"{api}/options", f"{api}/orders"}
    for path, answer in answers.items():
        response = client.get(path)
        assert answer == {"body": response.json(), "etag": response.get("ETag")}, path


def test_the_first_answers_tag_lets_the_first_poll_be_answered_304(client, sahara):
    client.force_login(seat_of(sahara, "TURKEY").user)
    api = f"/api/v1/games/{sahara.id}"
    answers = first_answers(client.get(f"/games/{sahara.id}/").content.decode())
    assert client.get(api, HTTP_IF_NONE_MATCH=answers[api]["etag"]).status_code == 304


def test_a_spectator_s_page_carries_only_the_game(client, sahara):
    answers = first_answers(client.get(f"/games/{sahara.id}/").content.decode())
    assert list(answers) == [f"/api/v1/games/{sahara.id}"]


def test_an_answer_the_api_refuses_is_left_out_for_the_page_to_ask_for(rf, sahara):
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    from dipserver.web.first_answers import first_answers as answers_for

    request = rf.get(f"/games/{sahara.id}/")
    request.user, request.session = AnonymousUser(), SessionStore()
    api = f"/api/v1/games/{sahara.id}"
    assert list(answers_for(request, [api, f"{api}/options", f"{api}/orders"])) == [api]  # 401s left out


def test_the_page_holding_my_state_is_never_cached_for_others(client, sahara):
    client.force_login(seat_of(sahara, "TURKEY").user)
    cache_control = client.get(f"/games/{sahara.id}/")["Cache-Control"]
    assert "private" in cache_control and "no-cache" in cache_control


def test_the_page_asks_for_its_map_early_with_a_preload(client, sahara):
    html = client.get(f"/games/{sahara.id}/").content.decode()
    index = sahara.current_phase.index
    url = f"/api/v1/games/{sahara.id}/phases/{index}/map.svg"
    assert f'<link rel="preload" href="{url}" as="fetch" crossorigin="anonymous">' in html


# --- the map SVG ---------------------------------------------------------------------------------------


def test_the_map_svg_is_gzipped_for_a_browser_that_takes_it(client, sahara):
    url = f"/api/v1/games/{sahara.id}/phases/0/map.svg"
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2
    assert "Accept-Encoding" in packed["Vary"] and packed["ETag"] == plain["ETag"]
    assert "style-src" in packed["Content-Security-Policy"]


def test_the_gzipped_map_svg_is_revalidated_by_its_tag(client, sahara):
    url = f"/api/v1/games/{sahara.id}/phases/0/map.svg"
    tag = client.get(url, HTTP_ACCEPT_ENCODING="gzip")["ETag"]
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_a_processed_phase_s_gzipped_map_is_cached_for_a_year(client, sahara):
    phase_process(phase_id=sahara.current_phase_id, force=True)
    packed = client.get(f"/api/v1/games/{sahara.id}/phases/0/map.svg", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert packed["Cache-Control"] == "public, max-age=31536000, immutable"


def test_the_gzipped_map_is_compressed_once_and_then_kept(client, sahara, monkeypatch):
    from dipserver.api import phases

    packed = []
    monkeypatch.setattr(phases, "compress_string", lambda data: packed.append(1) or gzip.compress(data))
    url = f"/api/v1/games/{sahara.id}/phases/0/map.svg"
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip").content
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").content == first and len(packed) == 1


def test_in_production_the_bundle_is_loaded_by_the_names_its_chunks_import_one_another_by(settings):
    # collectstatic's manifest would give each file a second hash; a chunk is imported by its own name.
    needs_the_build_tools()
    from django.template import Context, Template

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    html = Template('{% load scripts %}{% module_script "js/game.js" %}').render(Context())
    game = bundle.built()["js/game.js"]
    assert f'<script type="module" src="/static/{game.file}"></script>' in html
    for chunk in game.imports:
        assert f'<link rel="modulepreload" href="/static/{chunk}">' in html
