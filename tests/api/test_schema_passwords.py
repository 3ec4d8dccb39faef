"""Registration's password rules: the schema states the ones a schema can (its length, from the site's
validators), and a password of the right length that another rule refuses is well formed, so it answers
422 ``weak_password`` naming the field, never 400."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/accounts/register"
DOCUMENT = SchemaGenerator().get_schema(request=None, public=True)
OPERATION = DOCUMENT["paths"][REGISTER]["post"]


def _password_schema() -> dict:
    ref = OPERATION["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return DOCUMENT["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"]["password"]


def test_the_schema_states_the_length_the_validators_ask_for(settings):
    lengths = [
        v.get("OPTIONS", {}).get("min_length", 8)
        for v in settings.AUTH_PASSWORD_VALIDATORS
        if v["NAME"].endswith("MinimumLengthValidator")
    ]
    assert (_password_schema()["minLength"], _password_schema()["maxLength"]) == (max(lengths), 128)


def test_the_schema_documents_the_refusal_of_a_weak_password():
    assert "422" in OPERATION["responses"]
    assert "weak_password" in _password_schema()["description"]


def test_a_password_shorter_than_the_schema_allows_is_malformed():
    answer = client_for().post(REGISTER, {"username": "newbie", "password": "x" * 7})
    assert answer.status_code == 400
    assert set(answer.json()["error"]["fields"]) == {"password"}


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("password123", "too common"),
        ("8675309124", "entirely numeric"),
        ("newbie-player", "too similar to the username"),
    ],
)
def test_a_well_formed_password_the_rules_refuse_answers_422_naming_the_field(password, reason):
    answer = client_for().post(REGISTER, {"username": "newbie-player", "password": password})
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert error["code"] == "weak_password"
    assert reason in error["fields"]["password"] and reason in error["message"]
    assert not get_user_model().objects.filter(username="newbie-player").exists()


def test_a_strong_password_registers():
    answer = client_for().post(REGISTER, {"username": "newbie", "password": "correct horse 9"})
    assert answer.status_code == 201, answer.content
