"""Signing a delivery: ``X-Dipserver-Signature: sha256=<hex>``, the HMAC-SHA256 with the webhook's secret
of ``<X-Dipserver-Timestamp>.<body>``. A receiver recomputes it, compares in constant time, and refuses
old timestamps (a replayed delivery)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "X-Dipserver-Signature"
TIMESTAMP_HEADER = "X-Dipserver-Timestamp"


def secret_new() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def signature_of(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def signature_valid(secret: str, timestamp: str, body: bytes, signature: str) -> bool:
    return hmac.compare_digest(signature_of(secret, timestamp, body), signature)
