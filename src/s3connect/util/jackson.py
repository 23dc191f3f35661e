"""JSON text as Jackson's ``ObjectMapper`` writes it: compact, strings escaped as Jackson does,
numbers as Java prints them (``Double.toString`` / ``Float.toString``)."""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from typing import Any


class Float32(float):
    """A float that Jackson writes as Java's ``Float.toString``."""


JSON_ESCAPES = {i: f"\\u{i:04X}" for i in range(32)}
JSON_ESCAPES.update({8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\"})


def _java_float(value: float, single: bool) -> str:
    """Java's ``Double.toString``/``Float.toString`` (shortest repr digits, JDK 19+)."""
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    if single:
        f32 = struct.unpack("f", struct.pack("f", value))[0]
        for precision in range(9):
            text = f"{f32:.{precision}e}"
            if struct.unpack("f", struct.pack("f", float(text)))[0] == f32:
                break
        digits_dec = Decimal(text)
    else:
        digits_dec = Decimal(repr(value))
    sign, digit_tuple, exponent = digits_dec.normalize().as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple))
    sci = len(digits) - 1 + exponent  # value = d.ddd x 10^sci
    prefix = "-" if sign else ""
    if -3 <= sci < 7:
        if sci >= 0:
            whole = digits[: sci + 1].ljust(sci + 1, "0")
            frac = digits[sci + 1 :] or "0"
            return f"{prefix}{whole}.{frac}"
        return f"{prefix}0.{'0' * (-sci - 1)}{digits}"
    return f"{prefix}{digits[0]}.{digits[1:] or '0'}E{sci}"


def dump(node: Any, out: list[str]) -> None:
    if node is None:
        out.append("null")
    elif node is True:
        out.append("true")
    elif node is False:
        out.append("false")
    elif isinstance(node, str):
        out.append('"' + node.translate(JSON_ESCAPES) + '"')
    elif isinstance(node, float):
        if math.isnan(node):
            out.append('"NaN"')
        elif math.isinf(node):
            out.append('"Infinity"' if node > 0 else '"-Infinity"')
        else:
            out.append(_java_float(node, isinstance(node, Float32)))
    elif isinstance(node, int | Decimal):
        out.append(str(node))
    elif isinstance(node, list):
        out.append("[")
        for i, item in enumerate(node):
            if i:
                out.append(",")
            dump(item, out)
        out.append("]")
    else:
        out.append("{")
        for i, (key, item) in enumerate(node.items()):
            if i:
                out.append(",")
            out.append('"' + key.translate(JSON_ESCAPES) + '":')
            dump(item, out)
        out.append("}")
