"""Secret keys and how their values are shown: ``[hidden]``, as Kafka's ``Password``."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["HIDDEN", "is_secret", "masked", "shown"]

HIDDEN = "[hidden]"
"""What a secret value is shown as (Kafka's ``Password.toString()``)."""


def is_secret(key: str) -> bool:
    """Whether ``key`` holds a secret (passwords, JAAS lines, SSE-C keys, registry user info)."""
    k = key.lower()
    return (
        "password" in k
        or "secret" in k
        or k.endswith("jaas.config")
        or "sse.customer" in k
        or k.endswith("user.info")
    )


def shown(key: str, value: str) -> str:
    """``value`` as a message shows it: hidden when secret, ``''`` when empty."""
    if is_secret(key):
        return HIDDEN
    return value if value != "" else "''"


def masked(described: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``described`` with every secret value replaced by :data:`HIDDEN`."""
    return {k: (HIDDEN if is_secret(k) else v) for k, v in described.items()}
