"""Games, the powers people play, phases with their complete snapshots, orders, press and draw votes.

Rows hold plain data; ``mappers.py`` is the only place that turns them into engine values and back.
Writes go through ``services``; reads through ``selectors``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Game(models.Model):
    class Status(models.TextChoices):
        FORMING = "forming", "Waiting for players"
        ACTIVE = "active", "In play"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"

    class Press(models.TextChoices):
        FULL = "full", "Full press"
        PUBLIC = "public", "Public press only"
        GUNBOAT = "gunboat", "Gunboat (no press)"
        ANONYMOUS = "anonymous", "Anonymous press"

    class Assignment(models.TextChoices):
        RANDOM = "random", "Random"
        PREFERENCE = "preference", "By preference"

    class Result(models.TextChoices):
        NONE = "", "Not over"
        SOLO = "solo", "Solo victory"
        DRAW = "draw", "Draw"
        CONCESSION = "concession", "Concession"
        NO_WINNER = "no_winner", "No winner"

    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=50, help_text="Slug of the variant under variants/.")
    variant_version = models.CharField(max_length=64, help_text="Content hash pinned when created.")
    # A variant authored in the studio: the published version the game started on, never changed under it.
    studio_version = models.ForeignKey(
        "studio.VariantVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        help_text="The studio variant version the game pinned; empty for a variant of variants/.",
    )
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text="Timeline options (mode, errata ...) and rule modules (blizzards ...)",
    )
    # A generated board (Ice Lords) is rebuilt from the game secret and this: {"powers": 4}.
    board = models.JSONField(default=dict, blank=True, help_text="What regenerates a generated board.")
    press = models.CharField(max_length=10, choices=Press.choices, default=Press.FULL)
    # Minutes per phase type, keyed "M", "R", "A".
    phase_minutes = models.JSONField(default=dict)
    deadline_time = models.TimeField(null=True, blank=True, help_text="Fixed time of day for deadlines.")
    deadline_zone = models.CharField(max_length=64, default="UTC")
    grace_minutes = models.PositiveIntegerField(default=0, help_text="Once per phase, for missing orders.")
    join_password = models.CharField(max_length=128, blank=True, help_text="Hashed; empty: open game.")
    assignment = models.CharField(max_length=10, choices=Assignment.choices, default=Assignment.RANDOM)
    missed_limit = models.PositiveSmallIntegerField(
        default=2, help_text="Missed phases in a row before a power is in civil disorder."
    )
    vacation_days = models.PositiveSmallIntegerField(default=0, help_text="Per player, for the game.")
    min_reliability = models.PositiveSmallIntegerField(
        default=0, help_text="Percent of phases due a player must have ordered in to take a seat (0: anyone)."
    )
    min_rating = models.FloatField(
        null=True, blank=True, help_text="Rating (in the variant's family) a player needs to take a seat."
    )
    rated = models.BooleanField(default=True, help_text="Its ending changes the players' ratings.")
    replacement_approval = models.BooleanField(
        default=False, help_text="A replacement takes an open seat only once a game master approves."
    )
    bots_fill_seats = models.BooleanField(
        default=False, help_text="Its game masters may start it with bots in the seats still empty."
    )
    bots_play_disorder = models.BooleanField(
        default=False, help_text="A power in civil disorder is played by a bot until a person takes it."
    )
    bots_seated = models.BooleanField(
        default=False, editable=False, help_text="A bot has held a seat: bots order when a phase opens."
    )
    replacement_grace_minutes = models.PositiveIntegerField(
        default=1440, help_text="A replacement has at least this long before the open phase's deadline."
    )
    end_year = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Ends with no winner.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FORMING, db_index=True)
    result = models.CharField(max_length=12, choices=Result.choices, default=Result.NONE, blank=True)
    winners = models.JSONField(default=list, blank=True)
    # Random timelines: the commitment is public from the start, the secret is revealed at the end.
    secret = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    masters = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="mastered_games")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    current_phase = models.ForeignKey(
        "Phase", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paused_at = models.DateTimeField(null=True, blank=True)
    # Read with the game by every announcement of it, so telling who muted it costs no query of its own.
    muted_by = models.JSONField(
        default=list,
        blank=True,
        help_text="Ids of the players and game masters who muted its news: no mail, nothing in their inbox.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every save (services and the admin alike), so the game's ETags change with any setting.
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save and bump ``version`` in the same statement (``version + 1`` in SQL, so two saves of stale
        copies still count twice). A ``QuerySet.update()`` bypasses this: services do not update games
        in bulk."""
        if self._state.adding:
            super().save(*args, **kwargs)
            return
        self.version = F("version") + 1
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "version"}
        super().save(*args, **kwargs)
        del self.version  # deferred: read back from the row only if someone asks

    @property
    def secret_revealed(self) -> str | None:
        return self.secret if self.status == Game.Status.FINISHED else None


class VariantArchive(models.Model):
    """The source files of one variant version, shared by every game that pinned it (content-addressed:
    ``version`` is the engine's hash of exactly these files), so a game plays by the rules it started with
    after ``variants/`` changes."""

    version = models.CharField(max_length=64, primary_key=True)
    slug = models.CharField(max_length=50)
    files = models.JSONField(help_text='{"<slug>/<file>.toml": text}, the variant and its base chain.')
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.slug} {self.version[:12]}"


class Power(models.Model):
    """A seat: a user's membership of a game, as a power once the game has started."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        CIVIL_DISORDER = "civil_disorder", "Civil disorder"
        ELIMINATED = "eliminated", "Eliminated"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="powers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    name = models.CharField(max_length=30, blank=True, help_text="Empty until the game starts.")
    preferences = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    missed_phases = models.PositiveSmallIntegerField(default=0)
    seat_open = models.BooleanField(default=False, help_text="Offered to a replacement player.")
    ready = models.BooleanField(default=False)
    draw_vote = models.BooleanField(default=False)  # secret: shown to nobody until unanimous
    concede_to = models.CharField(max_length=30, blank=True)
    vacation_days_left = models.PositiveSmallIntegerField(default=0)
    # Bumped by each write of this power's orders: the orders' ETag, for If-Match (private to the power).
    orders_version = models.PositiveIntegerField(default=0, editable=False)
    # Away on vacation until then: phases that open meanwhile are due no earlier (services/powers.py).
    away_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "name"], condition=~Q(name=""), name="games_power_unique_name"
            ),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="games_power_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"seat {self.pk}"


class Phase(models.Model):
    """One phase of one game, with everything needed to show or replay it without recomputation.

    ``snapshot`` is the position at the start of the phase (schema: ``mappers`` docstring); ``orders``,
    ``results`` and ``events`` are filled when the phase is processed.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Taking orders"
        PROCESSED = "processed", "Processed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases")
    index = models.PositiveIntegerField(help_text="0 for the first phase played, then 1, 2, ...")
    name = models.CharField(max_length=8, help_text="S1901M, F1901R, W1901A ...")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    grace_used = models.BooleanField(default=False)
    reminder_sent = models.BooleanField(default=False)
    variant_version = models.CharField(max_length=64)
    snapshot = models.JSONField()
    orders = models.JSONField(default=dict, blank=True, help_text="power -> order texts, as adjudicated")
    results = models.JSONField(default=list, blank=True)
    events = models.JSONField(default=list, blank=True, help_text="Map changes after this phase.")
    skipped = models.JSONField(default=list, blank=True, help_text="Phases passed over after this one.")
    processed_at = models.DateTimeField(null=True, blank=True)
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When processing was last queued (the sweep queues a phase once)."
    )
    requeue_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Queued and still open: when the sweep queues it again (seconds after queuing until the "
        "broker has the task, minutes after).",
    )
    announce_due = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Processed, its results not yet told: when the sweep queues their announcement again "
        "(null once told).",
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="games_phase_unique_index"),
        ]
        indexes = [
            models.Index(fields=["status", "deadline"], name="games_phase_due"),
            models.Index(
                fields=["announce_due"],
                name="games_phase_untold",
                condition=models.Q(announce_due__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Order(models.Model):
    """One accepted order line of a power in an open phase; a new submission replaces the power's set."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="order_rows")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="orders")
    text = models.CharField(max_length=200, help_text="Normalised notation, e.g. A MUN S A PAR - BUR")
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["phase", "power"], name="games_order_phase_power")]

    def __str__(self) -> str:
        return self.text


class Message(models.Model):
    """Press. An empty recipient list means public press to everyone."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    phase_name = models.CharField(max_length=8)
    sender = models.ForeignKey(Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    recipients = models.JSONField(default=list, blank=True, help_text="Power names; empty: public.")
    body = models.TextField()
    sent_at = models.DateTimeField(auto_now_add=True)
    # Fixed when sent: a later change of the game's press setting never reveals who sent it.
    anonymous = models.BooleanField(default=False, help_text="Sent as anonymous press: sender hidden.")
    idempotency_key = models.CharField(
        max_length=255, blank=True, default="", help_text="The sender's Idempotency-Key; empty: none."
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="games_message_idempotency_key_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.phase_name}: {self.body[:40]}"


class PressMark(models.Model):
    """How far a power has read one press channel: the id of the last message read there (ids only grow,
    so every message of the channel with a larger id is unread)."""

    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="press_marks")
    channel = models.CharField(max_length=200, help_text="'public', a power name, or names joined by commas.")
    last_read = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["power", "channel"], name="games_pressmark_once")]

    def __str__(self) -> str:
        return f"{self.power_id} {self.channel}: {self.last_read}"


class Reminder(models.Model):
    """A deadline reminder announced to a player (of a phase, for its deadline then), whichever channels
    then carried it; the sweep writes it once, so each player hears of a deadline once."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deadline = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["phase", "user", "deadline"], name="games_reminder_once")
        ]

    def __str__(self) -> str:
        return f"reminder of phase {self.phase_id} for user {self.user_id}"


class Announcement(models.Model):
    """An event of a game (it started, it ended, press was sent, it moved to a newer studio version) not
    yet told on every channel. Written in the event's transaction and deleted once its task has run, so a
    task message lost between the commit and the broker is queued again by the sweep once ``due`` has
    passed. (A phase's results keep ``Phase.announce_due``: it rides on the UPDATE that saves them.)"""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.CASCADE, related_name="+", help_text="Press sent."
    )
    change = models.ForeignKey(
        "VersionChange",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="A newer studio version given to the game.",
    )
    sender = models.CharField(max_length=40, help_text="The notification that tells it.")
    due = models.DateTimeField(help_text="When the sweep queues it again if it is still not told.")

    class Meta:
        # Told rows are deleted, so every row is untold: a plain index is the partial one.
        indexes = [models.Index(fields=["due"], name="games_announcement_due")]

    def __str__(self) -> str:
        return f"{self.sender} of game {self.game_id}"


class Tenure(models.Model):
    """Who held a seat, from which phase on: written when the game starts and at each replacement, so
    what a player did (reliability, results) is read from the stored phases and orders of the phases
    they held, never from a counter. ``until_index`` is the first phase no longer theirs (null: theirs
    still)."""

    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="tenures")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="tenures"
    )
    from_index = models.PositiveIntegerField(help_text="The first phase (Phase.index) the player held.")
    until_index = models.PositiveIntegerField(
        null=True, blank=True, help_text="The first phase no longer theirs; null: they hold it still."
    )

    class Meta:
        ordering = ["power", "from_index", "id"]
        indexes = [models.Index(fields=["user", "power"], name="games_tenure_user")]

    def __str__(self) -> str:
        return f"user {self.user_id} on seat {self.power_id} from phase {self.from_index}"


class SeatRequest(models.Model):
    """A player asking for an open seat in a game whose masters approve replacements; gone once
    approved (the seat is theirs) or declined."""

    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["power", "user"], name="games_seatrequest_once")]

    def __str__(self) -> str:
        return f"user {self.user_id} asks for seat {self.power_id}"


class VersionChange(models.Model):
    """A newer version of its studio variant that a game master gave a running game, at the start of the
    open phase (``phase_index``): the game's record of it. ``snapshot_before`` is that phase's position as
    the old version left it (the replay of the phase before it ends there); ``diff`` what changed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="version_changes")
    phase_index = models.PositiveIntegerField(null=True, blank=True, help_text="Null: before the start.")
    phase_name = models.CharField(max_length=8, blank=True)
    # The versions as plain data ({"id", "slug", "number", "version"}), so the record travels with the game
    # to another server (games_export), where the studio's rows have other ids or are absent.
    from_version = models.JSONField(help_text="The studio version played until then.")
    to_version = models.JSONField(help_text="The studio version played from then.")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    diff = models.JSONField(default=dict, blank=True)
    snapshot_before = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.from_version.get('number')} -> {self.to_version.get('number')}"
