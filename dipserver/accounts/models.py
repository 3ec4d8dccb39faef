"""Who plays and who runs games."""

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A login. Our own model from the start, so fields can be added later without swapping models.

    Game masters are staff members of the ``Game masters`` group; players are ordinary users.
    """
