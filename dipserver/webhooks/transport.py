"""One POST to a webhook, to the address that was checked: the URL's host is resolved and checked here
(``addresses``), and the connection goes to that address while Host, SNI and the certificate check still
name the host. No redirects (one could point anywhere), and timeouts so a slow receiver holds no worker."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

import requests
from requests.adapters import HTTPAdapter

from dipserver.webhooks.addresses import address_checked, target_of

TIMEOUT = (5, 10)  # seconds: to connect, then between bytes of the answer


class _PinnedHost(HTTPAdapter):
    """Connects wherever the URL says (an address) but speaks TLS to ``host``."""

    def __init__(self, host: str) -> None:
        self._host = host
        super().__init__(max_retries=0)  # retries are the task's, with back-off

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self._host
        kwargs["assert_hostname"] = self._host
        super().init_poolmanager(*args, **kwargs)


@dataclass(frozen=True)
class Answer:
    status: int
    text: str  # the start of the body, for the delivery log


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body``; raises ``WebhookError`` for an address refused, ``requests.RequestException`` for
    a network failure."""
    target = target_of(url)
    address = address_checked(target)
    shown = f"[{address}]" if isinstance(address, ipaddress.IPv6Address) else str(address)
    default_port = 443 if target.scheme == "https" else 80
    host = target.host if target.port == default_port else f"{target.host}:{target.port}"
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the checked address is the one used
        session.mount(f"{target.scheme}://", _PinnedHost(target.host))
        response = session.post(
            f"{target.scheme}://{shown}:{target.port}{target.path}",
            data=body,
            headers={**headers, "Host": host, "Content-Type": "application/json"},
            timeout=TIMEOUT,
            allow_redirects=False,
        )
        return Answer(response.status_code, response.text[:500])
