"""Where a webhook may send: http(s) only, and only to addresses that are globally routable.

An allow-list, not a block-list: an address must be global by Python's ``ipaddress`` (``is_global``) and
must not be one of the classes below that ``is_global`` lets through or that only lead back inside:
shared address space (100.64.0.0/10, carrier-grade NAT; a cloud's metadata service answers at
100.100.100.200), multicast, IPv4-mapped and IPv4-compatible IPv6, Teredo, site-local ``fec0::/10``,
local-use NAT64, documentation ranges; and 6to4 (``2002::/16``) or well-known NAT64 (``64:ff9b::/96``)
addresses are judged by the IPv4 address they carry (``2002:7f00:1::`` is 127.0.0.1).

A host name is resolved when the hook is made and again at each delivery, every address it resolves to
must pass, and the delivery connects to the address that was checked (``transport``), so a name that
later resolves elsewhere (DNS rebinding) is refused too. An address written in the URL is not looked up.

Each name being looked up has a thread of its own (``Lookups``), shared by every caller asking for that
name meanwhile, and each caller waits only until its own deadline: a name whose resolver stalls holds one
thread and its own callers, never the lookups of other names (a shared pool would queue them behind it).

``DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK`` lets loopback (127.0.0.0/8, ::1) through, for the test suite's
receivers only: only the test settings set it.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

from dipserver.webhooks.errors import WebhookError

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# Names looked up at once in one process, at most: past it a lookup is refused at once (the delivery is
# tried again later) rather than queued, and stalled names cannot pile up threads without bound.
LOOKUPS_AT_ONCE = 128
# How long making a hook waits for its name to resolve.
RESOLVE_SECONDS = 5.0

# Ranges refused although ``is_global`` may call them global (it differs between Python releases).
_REFUSED = tuple(
    ipaddress.ip_network(network)
    for network in (
        "100.64.0.0/10",  # shared address space (RFC 6598), 100.100.100.200 among them
        "192.0.0.0/24",  # IETF protocol assignments
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
        "::/96",  # IPv4-compatible IPv6 (deprecated)
        "::ffff:0:0/96",  # IPv4-mapped IPv6
        "64:ff9b:1::/48",  # local-use NAT64
        "2001::/32",  # Teredo
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
        "fec0::/10",  # site-local (deprecated)
    )
)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


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


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a 6to4 or NAT64 address leads to."""
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_global(address: IpAddress) -> bool:
    """Whether a webhook may reach ``address``: globally routable, and not one of the refused classes."""
    if any(address in network for network in _REFUSED if network.version == address.version):
        return False
    if address.is_multicast or not address.is_global:
        return False
    if isinstance(address, ipaddress.IPv6Address) and (embedded := _embedded_ipv4(address)) is not None:
        return address_global(embedded)
    return True


def address_allowed(address: IpAddress) -> bool:
    if address.is_loopback and getattr(settings, "DIPSERVER_WEBHOOKS_ALLOW_LOOPBACK", False):
        return True
    return address_global(address)


def addresses_checked(target: Target, addresses: Iterable[IpAddress]) -> IpAddress:
    """The address to connect to: every address the host resolves to must be allowed (one refused
    address among several would let a rebinding resolver choose it), and the first is used."""
    found = list(addresses)
    refused = sorted({str(a) for a in found if not address_allowed(a)})
    if refused or not found:
        raise WebhookError(
            f"The host {target.host!r} resolves to an address webhooks may not reach ({', '.join(refused)}).",
            code="address_refused",
        )
    return found[0]


def addresses_of(found: Iterable[tuple[object, ...]]) -> list[IpAddress]:
    """The addresses in ``getaddrinfo``'s answer (an IPv6 scope such as ``%eth0`` dropped)."""
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]  # type: ignore[index]


Resolver = Callable[..., list[Any]]  # socket.getaddrinfo's signature and answer


class Lookups:
    """Host names being looked up, each in a thread of its own (not a pool: nothing waits in a queue
    behind a stalled name), shared by every caller asking for the same name meanwhile, whatever the
    port. A result is not kept: the next lookup after it asks the resolver again. ``resolve``:
    ``socket.getaddrinfo`` (looked up at each call) unless another is given, as the tests give a
    stalling one."""

    def __init__(self, resolve: Resolver | None = None, at_once: int = LOOKUPS_AT_ONCE) -> None:
        self.resolve, self.at_once = resolve, at_once
        self._lock = threading.Lock()
        self._in_flight: dict[str, Future[list[IpAddress]]] = {}

    def in_flight(self) -> int:
        with self._lock:
            return len(self._in_flight)

    def of(self, target: Target) -> Future[list[IpAddress]]:
        """The addresses of the target's host, being looked up; a ``bad_url`` refusal if it does not
        resolve, ``lookups_busy`` when ``at_once`` names are already being looked up."""
        key = target.host.lower()
        with self._lock:
            running = self._in_flight.get(key)
            if running is not None:
                return running
            future: Future[list[IpAddress]] = Future()
            if len(self._in_flight) >= self.at_once:
                busy = f"Too many host names are being looked up at once; {target.host!r} is looked up later."
                future.set_exception(WebhookError(busy, code="lookups_busy"))
                return future
            # Running from the start, so a caller that stops waiting (asyncio cancels what it waited for)
            # cannot cancel it under the other callers.
            future.set_running_or_notify_cancel()
            self._in_flight[key] = future
        threading.Thread(target=self._look_up, args=(key, future), name="webhook-lookup", daemon=True).start()
        return future

    def _look_up(self, host: str, future: Future[list[IpAddress]]) -> None:
        try:
            found = (self.resolve or socket.getaddrinfo)(host, None, type=socket.SOCK_STREAM)
            addresses = addresses_of(found)
        except (OSError, UnicodeError, ValueError) as exc:
            error = WebhookError(f"The host {host!r} does not resolve: {exc}.", code="bad_url")
            self._done(host)
            future.set_exception(error)
        else:
            self._done(host)
            future.set_result(addresses)

    def _done(self, host: str) -> None:
        """The lookup ended: the next caller asks the resolver again (nothing is kept)."""
        with self._lock:
            self._in_flight.pop(host, None)


lookups = Lookups()


def literal_address(host: str) -> IpAddress | None:
    """The address written as the URL's host (``127.0.0.1``, ``::1``), or None for a name."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


def resolving(target: Target) -> Future[list[IpAddress]]:
    """The target's addresses: an address in the URL at once, a name as ``lookups`` finds it."""
    literal = literal_address(target.host)
    if literal is None:
        return lookups.of(target)
    future: Future[list[IpAddress]] = Future()
    future.set_result([literal])
    return future


def address_checked(target: Target, *, timeout: float = RESOLVE_SECONDS) -> IpAddress:
    """Resolve the target's host (waiting at most ``timeout`` seconds) and check it: when a hook is made."""
    try:
        addresses = resolving(target).result(timeout=timeout)
    except FutureTimeout:
        raise WebhookError(
            f"The host {target.host!r} did not resolve within {timeout:g} s.", code="bad_url"
        ) from None
    return addresses_checked(target, addresses)
