"""The site's URLs plus views that fail on purpose, to see what a client gets when the server has a bug."""

from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dipserver.config.urls import *  # noqa: F403 - the site's handler400/403/404/500 come with it
from dipserver.config.urls import urlpatterns as site_urlpatterns


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a plain view")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


class BrokenApi(APIView):
    def get(self, request: Request) -> Response:
        raise ZeroDivisionError("a bug in an API view")


class LockedApi(APIView):
    permission_classes: list[type] = []

    def put(self, request: Request) -> Response:
        raise OperationalError("database is locked")


urlpatterns = [
    path("api/v1/broken", broken),
    path("api/v1/broken-api", BrokenApi.as_view()),
    path("api/v1/forbidden", forbidden),
    path("api/v1/locked", LockedApi.as_view()),
    path("games/broken/", broken),
    *site_urlpatterns,
]
