"""The HTML pages. Sign in and out stay with the accounts app; sign-up is here."""

from django.urls import path

from dipserver.web import (
    account,
    account_tokens,
    account_webhooks,
    accounts,
    games,
    inbox,
    players,
    sandboxes,
    studio,
    variants,
)

urlpatterns = [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/settings/", account.account_page, name="account"),
    path("accounts/tokens/", account_tokens.token_add, name="token-add"),
    path("accounts/tokens/<int:token_id>/revoke/", account_tokens.token_remove, name="token-remove"),
    path("accounts/webhooks/", account_webhooks.webhook_add, name="webhook-add"),
    path(
        "accounts/webhooks/<int:webhook_id>/remove/", account_webhooks.webhook_remove, name="webhook-remove"
    ),
    path("accounts/email/confirm/<str:token>/", account.email_confirm_page, name="email-confirm"),
    path("mail/unsubscribe/<str:token>/", account.unsubscribe_page, name="unsubscribe"),
    path("inbox/", inbox.inbox_page, name="inbox"),
    path("inbox/read/", inbox.inbox_read, name="inbox-read-all"),
    path("inbox/<int:notification_id>/read/", inbox.inbox_read, name="inbox-read"),
    path("games/", games.lobby, name="lobby"),
    path("games/new/", games.game_new, name="game-new"),
    path("games/<int:game_id>/", games.game_page, name="game"),
    path("games/<int:game_id>/join/", games.game_join, name="game-join"),
    path("games/<int:game_id>/leave/", games.game_leave, name="game-leave"),
    path("games/<int:game_id>/fill-with-bots/", games.game_fill_with_bots, name="game-fill-with-bots"),
    path("games/<int:game_id>/seats/<int:seat_id>/take/", games.seat_take, name="seat-take"),
    path("seat-requests/<int:request_id>/", games.seat_request_decide, name="seat-request-decide"),
    path("players/<str:username>/", players.profile_page, name="player"),
    path("leaderboard/", players.leaderboard_page, name="leaderboard"),
    path("studio/", studio.studio_home, name="studio"),
    path("studio/drafts/new/", studio.studio_draft_new, name="studio-draft-new"),
    path("studio/drafts/<int:draft_id>/", studio.studio_editor, name="studio-draft"),
    path("games/<int:game_id>/mute/", games.game_mute_toggle, name="game-mute"),
    path("games/<int:game_id>/sandbox/", sandboxes.sandbox_from_game, name="game-sandbox"),
    path("sandboxes/", sandboxes.sandbox_list, name="sandboxes"),
    path("sandboxes/<int:sandbox_id>/", sandboxes.sandbox_page, name="sandbox"),
    path("sandboxes/shared/<str:token>/", sandboxes.sandbox_shared_page, name="sandbox-shared"),
    path("variants/<slug:slug>/", variants.variant_page, name="variant"),
    path("variants/<slug:slug>/seasons/<int:step>.svg", variants.season_map, name="variant-season-map"),
]
