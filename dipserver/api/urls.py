"""The REST API, mounted at ``/api/v1/``."""

from django.urls import path, re_path

from dipserver.api import (
    accounts,
    game_versions,
    games,
    mastering,
    notifications,
    orders,
    phases,
    players,
    press,
    sandbox_steps,
    sandboxes,
    seats,
    settings,
    studio,
    studio_tests,
    timeline,
    tokens,
    variants,
    webhooks,
)
from dipserver.api.errors import not_found

app_name = "api"

# Django tries the patterns in order: the busiest addresses (a bot's poll, orders, options, ready) come
# first. No two patterns match one address (but the last), so the order changes no match.
urlpatterns = [
    path("games/<int:game_id>/orders", orders.OrdersApi.as_view(), name="orders"),
    path("games/<int:game_id>", games.GameDetailApi.as_view(), name="game"),
    path("games/<int:game_id>/options", orders.OptionsApi.as_view(), name="options"),
    path("games/<int:game_id>/ready", orders.ReadyApi.as_view(), name="ready"),
    path("accounts/register", accounts.AccountRegisterApi.as_view(), name="register"),
    path("accounts/token", accounts.TokenObtainApi.as_view(), name="token"),
    path("accounts/token/rotate", tokens.TokenRotateApi.as_view(), name="token-rotate"),
    path("accounts/tokens", tokens.TokenListApi.as_view(), name="tokens"),
    path("accounts/tokens/<int:token_id>", tokens.TokenDetailApi.as_view(), name="token-detail"),
    path("accounts/tokens/<int:token_id>/rotate", tokens.TokenRotateApi.as_view(), name="token-id-rotate"),
    path("accounts/logout", tokens.LogoutApi.as_view(), name="logout"),
    path("accounts/me", accounts.MeApi.as_view(), name="me"),
    path("accounts/calendar/renew", accounts.CalendarRenewApi.as_view(), name="calendar-renew"),
    path("accounts/settings", settings.AccountSettingsApi.as_view(), name="account-settings"),
    path("notifications", notifications.NotificationListApi.as_view(), name="notifications"),
    path("notifications/unread", notifications.UnreadApi.as_view(), name="notifications-unread"),
    path("notifications/read", notifications.NotificationsReadApi.as_view(), name="notifications-read"),
    path(
        "notifications/<int:notification_id>/read",
        notifications.NotificationReadApi.as_view(),
        name="notification-read",
    ),
    path("webhooks", webhooks.WebhookListApi.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>", webhooks.WebhookDetailApi.as_view(), name="webhook"),
    path(
        "webhooks/<int:webhook_id>/deliveries",
        webhooks.WebhookDeliveriesApi.as_view(),
        name="webhook-deliveries",
    ),
    path("players/<str:username>", players.PlayerProfileApi.as_view(), name="player"),
    path("leaderboard", players.LeaderboardApi.as_view(), name="leaderboard"),
    path("variants", variants.VariantListApi.as_view(), name="variants"),
    path("variants/<slug:slug>", variants.VariantDetailApi.as_view(), name="variant"),
    path("games", games.GamesApi.as_view(), name="games"),
    path("games/<int:game_id>/join", games.GameJoinApi.as_view(), name="join"),
    path("games/<int:game_id>/leave", games.GameLeaveApi.as_view(), name="leave"),
    path("games/<int:game_id>/draw-vote", games.DrawVoteApi.as_view(), name="draw-vote"),
    path("games/<int:game_id>/concede", games.ConcedeApi.as_view(), name="concede"),
    path("games/<int:game_id>/vacation", games.VacationApi.as_view(), name="vacation"),
    path("games/<int:game_id>/mute", games.GameMuteApi.as_view(), name="mute"),
    path("games/<int:game_id>/timeline", timeline.GameTimelineApi.as_view(), name="timeline"),
    path("games/<int:game_id>/timeline/", timeline.timeline_moved, name="timeline-moved"),
    path("games/<int:game_id>/geometry", timeline.GameGeometryApi.as_view(), name="geometry"),
    path("games/<int:game_id>/graph", timeline.GameGraphApi.as_view(), name="graph"),
    path("games/<int:game_id>/phases", phases.PhaseListApi.as_view(), name="phases"),
    path("games/<int:game_id>/phases/<int:index>", phases.PhaseDetailApi.as_view(), name="phase"),
    path("games/<int:game_id>/phases/<int:index>/map.svg", phases.PhaseMapSvgApi.as_view(), name="map-svg"),
    path("games/<int:game_id>/phases/<int:index>/map.png", phases.PhaseMapPngApi.as_view(), name="map-png"),
    path("games/<int:game_id>/channels", press.ChannelListApi.as_view(), name="channels"),
    path("games/<int:game_id>/messages", press.MessagesApi.as_view(), name="messages"),
    path("games/<int:game_id>/press/public", press.PublicPressApi.as_view(), name="press-public"),
    path("seats/open", seats.OpenSeatsApi.as_view(), name="open-seats"),
    path("games/<int:game_id>/seats/<int:seat_id>/take", seats.SeatTakeApi.as_view(), name="seat-take"),
    path("games/<int:game_id>/seats/<int:seat_id>/bot", seats.SeatToBotApi.as_view(), name="seat-to-bot"),
    path("games/<int:game_id>/fill-with-bots", seats.GameFillWithBotsApi.as_view(), name="fill-with-bots"),
    path("games/<int:game_id>/seat-requests", seats.SeatRequestsApi.as_view(), name="seat-requests"),
    path(
        "games/<int:game_id>/seat-requests/<int:request_id>/approve",
        seats.SeatRequestDecideApi.as_view(),
        {"decision": "approve"},
        name="seat-request-approve",
    ),
    path(
        "games/<int:game_id>/seat-requests/<int:request_id>/decline",
        seats.SeatRequestDecideApi.as_view(),
        {"decision": "decline"},
        name="seat-request-decline",
    ),
    path("games/<int:game_id>/process", mastering.GameProcessApi.as_view(), name="process"),
    path("games/<int:game_id>/extend", mastering.GameExtendApi.as_view(), name="extend"),
    path("games/<int:game_id>/pause", mastering.GamePauseApi.as_view(), name="pause"),
    path("games/<int:game_id>/resume", mastering.GameResumeApi.as_view(), name="resume"),
    path(
        "games/<int:game_id>/studio-versions", game_versions.GameVersionsApi.as_view(), name="game-versions"
    ),
    path(
        "games/<int:game_id>/studio-versions/<int:version_id>",
        game_versions.GameVersionApi.as_view(),
        name="game-version",
    ),
    path("studio/drafts", studio.DraftListApi.as_view(), name="studio-drafts"),
    path("studio/drafts/import", studio.DraftImportApi.as_view(), name="studio-draft-import"),
    path("studio/drafts/<int:draft_id>", studio.DraftDetailApi.as_view(), name="studio-draft"),
    path("studio/drafts/<int:draft_id>/check", studio.DraftCheckApi.as_view(), name="studio-draft-check"),
    path(
        "studio/drafts/<int:draft_id>/tests", studio_tests.DraftTestsApi.as_view(), name="studio-draft-tests"
    ),
    path("studio/drafts/<int:draft_id>/svg", studio.DraftSvgApi.as_view(), name="studio-draft-svg"),
    path("studio/imports/<int:job_id>", studio.SvgImportApi.as_view(), name="studio-svg-import"),
    path(
        "studio/drafts/<int:draft_id>/package", studio.DraftPackageApi.as_view(), name="studio-draft-package"
    ),
    path(
        "studio/drafts/<int:draft_id>/publish", studio.DraftPublishApi.as_view(), name="studio-draft-publish"
    ),
    path("studio/versions", studio.VersionListApi.as_view(), name="studio-versions"),
    path("studio/versions/<int:version_id>", studio.VersionDetailApi.as_view(), name="studio-version"),
    path(
        "studio/versions/<int:version_id>/package",
        studio.VersionPackageApi.as_view(),
        name="studio-version-package",
    ),
    path(
        "studio/versions/<int:version_id>/tests",
        studio_tests.VersionTestsApi.as_view(),
        name="studio-version-tests",
    ),
    path(
        "studio/versions/<int:version_id>/unpublish",
        studio.VersionUnpublishApi.as_view(),
        name="studio-version-unpublish",
    ),
    path("sandboxes", sandboxes.SandboxListApi.as_view(), name="sandboxes"),
    path("sandboxes/<int:sandbox_id>", sandboxes.SandboxDetailApi.as_view(), name="sandbox"),
    path("sandboxes/<int:sandbox_id>/copy", sandboxes.SandboxCopyApi.as_view(), name="sandbox-copy"),
    path("sandboxes/<int:sandbox_id>/steps/<int:number>", sandbox_steps.StepDetailApi.as_view(), name="step"),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/play",
        sandbox_steps.StepPlayApi.as_view(),
        name="step-play",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/branch",
        sandbox_steps.StepBranchApi.as_view(),
        name="step-branch",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/setup",
        sandbox_steps.StepSetupApi.as_view(),
        name="step-setup",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/map.svg",
        sandbox_steps.StepMapSvgApi.as_view(),
        name="step-map-svg",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/timeline",
        sandbox_steps.StepTimelineApi.as_view(),
        name="step-timeline",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/powers/<str:power>/timeline",
        sandbox_steps.StepTimelineApi.as_view(),
        name="step-power-timeline",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/powers/<str:power>/orders",
        sandbox_steps.PowerOrdersApi.as_view(),
        name="step-power-orders",
    ),
    path(
        "sandboxes/<int:sandbox_id>/steps/<int:number>/powers/<str:power>/options",
        sandbox_steps.PowerOptionsApi.as_view(),
        name="step-power-options",
    ),
    re_path(r"^.*$", not_found),
]
