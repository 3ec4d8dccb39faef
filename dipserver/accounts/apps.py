from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "dipserver.accounts"
    label = "accounts"
    verbose_name = "Accounts"
