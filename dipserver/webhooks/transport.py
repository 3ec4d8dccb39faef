"""One POST to a webhook, to the address that was checked, within one wall-clock deadline.

The URL's host is resolved and checked here (``addresses``), and the connection goes to that address
while Host, SNI and the certificate check still name the host. No redirects (one could point anywhere),
no proxy from the environment. The deadline covers everything, resolving the name, connecting, sending
and the receiver's answer: it is a total, not a time between bytes, so a receiver that trickles its
answer a byte a second is cut off at the deadline all the same. Only the status line and headers are
read; the body of the answer is never waited for.
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass

import httpx

from dipserver.webhooks.addresses import Target, addresses_checked, resolving, target_of
from dipserver.webhooks.errors import WebhookError

USER_AGENT = "dipserver-webhooks/1"


class Unreachable(Exception):
    """The receiver could not be reached, or did not answer within the deadline: worth trying again."""


@dataclass(frozen=True)
class Answer:
    status: int


def post(url: str, body: bytes, headers: dict[str, str], *, deadline: float) -> Answer:
    """POST ``body`` and return the receiver's status, all within ``deadline`` seconds. Raises
    ``WebhookError`` (``address_refused``) for an address webhooks may not reach, ``Unreachable`` for a
    name that does not resolve, a network failure, or the deadline passing."""
    target = target_of(url)
    try:
        return asyncio.run(asyncio.wait_for(_post(target, body, headers, deadline), deadline))
    except TimeoutError:
        raise Unreachable(f"no answer within the deadline of {deadline:g} s") from None


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


async def _post(target: Target, body: bytes, headers: dict[str, str], deadline: float) -> Answer:
    try:
        # Not the loop's default executor: asyncio.run would wait for a slow lookup after the deadline.
        found = await asyncio.wrap_future(resolving(target))
    except WebhookError as exc:
        raise Unreachable(str(exc)) from None  # a name that does not resolve now may later
    address = addresses_checked(target, found)
    shown = f"[{address}]" if isinstance(address, ipaddress.IPv6Address) else str(address)
    default_port = 443 if target.scheme == "https" else 80
    host = target.host if target.port == default_port else f"{target.host}:{target.port}"
    # TLS names the host (SNI and the certificate), not the address connected to; an address in the URL
    # is checked as itself.
    extensions = {} if _is_address(target.host) else {"sni_hostname": target.host}
    sent = {**headers, "Host": host, "Content-Type": "application/json", "User-Agent": USER_AGENT}
    try:
        async with (
            httpx.AsyncClient(trust_env=False, follow_redirects=False, timeout=deadline) as client,
            client.stream(
                "POST",
                f"{target.scheme}://{shown}:{target.port}{target.path}",
                content=body,
                headers=sent,
                extensions=extensions,
            ) as response,
        ):
            return Answer(response.status_code)
    except httpx.HTTPError as exc:
        raise Unreachable(f"{type(exc).__name__}: {exc}"[:2000]) from None
