"""Where a webhook may send: http(s) only, and never to this server's own network.

Private, loopback, link-local, reserved, multicast and unspecified addresses are refused (the site must
not become a way into the network it runs in). A host name is resolved when the hook is made and again
at each delivery, and the delivery connects to the address that was checked (``transport``), so a name
that later resolves elsewhere (DNS rebinding) is refused too. ``DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK``
lets loopback through, for the tests and the demo; production leaves it off.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from dipserver.webhooks.errors import WebhookError

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written in the URL (for Host, SNI and the certificate)
    port: int
    path: str  # with the query


def target_of(url: str) -> Target:
    """The parts of a webhook URL, or a ``bad_url`` refusal saying what is wrong."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise WebhookError(f"That is not a URL: {exc}.", code="bad_url") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookError("A webhook URL starts with http:// or https://.", code="bad_url")
    if not parts.hostname:
        raise WebhookError("A webhook URL names a host.", code="bad_url")
    if parts.username or parts.password:
        raise WebhookError("A webhook URL carries no user name or password.", code="bad_url")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path)


def address_allowed(address: IpAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return bool(getattr(settings, "DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK", False))
    return not (
        address.is_private
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
    )


def address_checked(target: Target) -> IpAddress:
    """The address to connect to: every address the host resolves to must be allowed (one refused
    address among several would let a rebinding resolver choose it), and the first is used."""
    try:
        found = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise WebhookError(f"The host {target.host!r} does not resolve: {exc}.", code="bad_url") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    refused = sorted({str(a) for a in addresses if not address_allowed(a)})
    if refused or not addresses:
        raise WebhookError(
            f"The host {target.host!r} resolves to an address webhooks may not reach ({', '.join(refused)}).",
            code="address_refused",
        )
    return addresses[0]
