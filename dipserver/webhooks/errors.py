"""The one error webhook services raise for what an owner can cause; ``code`` is mapped to an HTTP
status in ``dipserver/api/errors.py``."""


class WebhookError(ValueError):
    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code
