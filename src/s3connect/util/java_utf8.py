"""Text as Java encodes it in UTF-8 (``String.getBytes(UTF_8)``, Avro's and parquet-avro's string
writers): a lone surrogate, which a Java string (and a Python one read from JSON's ``\\ud800``)
may hold but UTF-8 cannot, becomes ``?``."""

from __future__ import annotations

from typing import Any

__all__ = ["java_utf8_ready"]


def java_utf8_ready(value: Any) -> Any:
    """``value`` (strings, dicts, lists and tuples of them, anything else as it is) with every
    lone surrogate of its strings and dict keys replaced by ``?``."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {java_utf8_ready(k): java_utf8_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(java_utf8_ready(v) for v in value)
    return value
