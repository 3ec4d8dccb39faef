"""The studio's answers as the schema documents them: drafts, their check and tests, SVG imports, published
versions and the versions a running game moves onto. The views build their answers as plain data
(``studio.draft_detail``, ``studio.version_summary``, ``game_versions.change_data``...); these serializers
say their shape, so a generated client gets typed objects rather than an empty body;
``tests/api/test_schema_answers.py`` validates real answers against them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from dipserver.engine import Hook
from dipserver.studio.models import SvgImport

HOOKS = tuple(hook.value for hook in Hook)  # named for the schema's enum (ENUM_NAME_OVERRIDES)


def _names(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


def _table(help_text: str, allow_null: bool = False) -> serializers.DictField:
    """A JSON object whose keys the variant's author chose (a TOML file as a table, a drawing)."""
    return serializers.DictField(child=serializers.JSONField(), allow_null=allow_null, help_text=help_text)


class DraftSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField(help_text="The variant's name (its slug until it has one).")
    revision = serializers.IntegerField(help_text="Saves so far: send it back with the next save.")
    updated_at = serializers.DateTimeField()
    has_drawing = serializers.BooleanField(help_text="Whether it has a drawing of its own (else its base's).")


class DraftSerializer(DraftSummarySerializer):
    tables = _table("The draft's files as tables: variant, map, start, timeline, tests.")
    geometry = _table("Its drawing, in geometry.json's shape; null: its base's.", allow_null=True)
    svg = serializers.CharField(allow_null=True, help_text="The sanitised SVG it was drawn from; null: none.")


class DraftListSerializer(serializers.Serializer[Any]):
    results = DraftSummarySerializer(many=True, help_text="Newest saved first.")


class ScenarioResultSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    passed = serializers.BooleanField()
    failures = _names("Why it fails, each in a sentence; empty when it passes.")


class ScenariosRunSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField(help_text="Whether every test passed.")
    tests = ScenarioResultSerializer(many=True, help_text="In the order the draft lists them.")


class CheckFindingSerializer(serializers.Serializer[Any]):
    at = serializers.CharField(
        help_text='Where: "files" (the loader refused them), "drawing", "start", "timeline", "tests" or '
        '"<year> <hook>".'
    )
    message = serializers.CharField()
    provinces = _names("The provinces it concerns, to show it beside them.")
    events = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="The timeline's events it concerns (numbered from 1, as the file lists them).",
    )


class CheckMapSerializer(serializers.Serializer[Any]):
    terrain = serializers.DictField(child=serializers.CharField(), help_text="Province -> its terrain.")
    centres = _names("The supply centres.")


class CheckStartSerializer(CheckMapSerializer):
    powers = _names("The powers.")
    units = serializers.DictField(child=_names("Its units, e.g. A PAR."), help_text="Power -> its units.")


class CheckTimelineStepSerializer(CheckMapSerializer):
    """A moment the map changes, with the map after it."""

    year = serializers.IntegerField()
    hook = serializers.ChoiceField(choices=HOOKS)
    when = serializers.CharField(help_text='In words, e.g. "1903 after the Autumn retreats".')
    events = serializers.ListField(
        child=_table("One event as timeline.toml gives it, with its text in words."),
        help_text="What changes.",
    )


class DraftCheckSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField(help_text="No problem: it may be published.")
    version = serializers.CharField(
        allow_null=True, help_text="The engine's hash of the files; null: none load."
    )
    problems = CheckFindingSerializer(many=True, help_text="Any of them stops publishing.")
    notes = CheckFindingSerializer(many=True)
    timeline = CheckTimelineStepSerializer(
        many=True, help_text="Each moment the map changes, for the preview."
    )
    start = CheckStartSerializer(
        allow_null=True, help_text="The map and units at the start; null: none load."
    )
    tests = ScenarioResultSerializer(many=True, help_text="The draft's own tests run.")


class SvgImportFailureSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="As an error answer's, e.g. invalid_svg, stale_revision.")
    message = serializers.CharField()
    provinces = _names("The provinces the mistake concerns.")
    problems = serializers.ListField(
        child=_table("One mistake: message and provinces."), help_text="Each mistake, when there are several."
    )


class SvgImportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="Where to poll it.")
    draft_id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=SvgImport.Status.choices)
    warnings = _names("What the sanitiser dropped, shapes left as scenery, provinces removed.")
    error = SvgImportFailureSerializer(allow_null=True, help_text="Why it failed; null unless it did.")
    draft = DraftSerializer(required=False, help_text="The draft as the map made it; only once done.")


class VersionSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    number = serializers.IntegerField(help_text="1 for the slug's first version, then 2...")
    name = serializers.CharField()
    author = serializers.CharField(help_text="The author's username.")
    version = serializers.CharField(help_text="The engine's hash of its files.")
    published = serializers.BooleanField(help_text="False once a site admin unpublished it.")
    published_at = serializers.DateTimeField()
    unpublished_at = serializers.DateTimeField(allow_null=True)


class VersionListSerializer(serializers.Serializer[Any]):
    results = VersionSummarySerializer(many=True, help_text="By slug, newest version first.")


class VersionTestsSerializer(serializers.Serializer[Any]):
    scenarios = serializers.ListField(child=_table("One case, as tests/scenarios.toml gives it."))


class VersionSerializer(VersionSummarySerializer):
    files = serializers.DictField(
        child=serializers.CharField(), help_text='"<slug>/<file>.toml" -> its text, its bases\' included.'
    )
    geometry = _table("Its drawing, in geometry.json's shape; null: its base's.", allow_null=True)
    tests = VersionTestsSerializer(help_text="The tests published with it (.../tests runs them).")


class VersionRecordSerializer(serializers.Serializer[Any]):
    """A version as a game's record keeps it (it travels with the game to another server)."""

    id = serializers.IntegerField()
    slug = serializers.CharField()
    number = serializers.IntegerField()
    version = serializers.CharField(help_text="The engine's hash of its files.")


_DIFF = "What changes, as data: provinces, adjacencies, centres, homes, powers, timeline, victory, same."
_DIFF_LINES = "What changes in sentences, one per kind of change (the players' news says the same)."

# ``from`` is a Python keyword, so these two serializers are made from dicts of their fields.
GameVersionChangeSerializer = type(
    "GameVersionChangeSerializer",
    (serializers.Serializer,),
    {
        "id": serializers.IntegerField(),
        "phase": serializers.CharField(
            allow_null=True, help_text="The phase it applied from; null: the game was forming."
        ),
        "from": VersionRecordSerializer(help_text="The version played until then."),
        "to": VersionRecordSerializer(help_text="The version played from then."),
        "by": serializers.CharField(allow_null=True, help_text="The game master's username; null: gone."),
        "at": serializers.DateTimeField(),
        "diff": _table(_DIFF),
        "diff_lines": _names(_DIFF_LINES),
    },
)

# A preview's answer. ``diff_lines`` is the diff in the sentences the players' news says too (one wording,
# ``games.version_diff.diff_lines``): a client shows them rather than writing its own from ``diff``.
GameVersionPreviewSerializer = type(
    "GameVersionPreviewSerializer",
    (serializers.Serializer,),
    {
        "from": VersionSummarySerializer(allow_null=True, help_text="The version the game plays."),
        "to": VersionSummarySerializer(help_text="The version previewed."),
        "phase": serializers.CharField(
            allow_null=True, help_text="The open phase it would apply from (null: the game is forming)."
        ),
        "diff": _table(_DIFF),
        "diff_lines": _names(_DIFF_LINES),
        "problems": serializers.ListField(
            child=_table("One problem, with its code."), help_text="What refuses it now, each with a code."
        ),
        "applicable": serializers.BooleanField(help_text="Whether no problem refuses it now."),
    },
)


class GameVersionsSerializer(serializers.Serializer[Any]):
    current = VersionSummarySerializer(allow_null=True, help_text="The version the game plays.")
    offered = VersionSummarySerializer(many=True, help_text="Newer published versions it may move onto.")
    changes = GameVersionChangeSerializer(
        many=True, help_text="The versions it has moved onto, oldest first."
    )
