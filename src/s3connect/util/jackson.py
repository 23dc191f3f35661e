"""JSON text as Jackson's ``ObjectMapper`` writes it: compact, strings escaped as Jackson does,
numbers as Java prints them (``Double.toString`` / ``Float.toString``)."""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from decimal import Decimal, localcontext
from typing import Any

import orjson


class Float32(float):
    """A float that Jackson writes as Java's ``Float.toString``."""


JSON_ESCAPES = {i: f"\\u{i:04X}" for i in range(32)}
JSON_ESCAPES.update({8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\"})
# Jackson's UTF-8 generator escapes every UTF-16 surrogate: a character beyond the BMP as its
# pair (COMBINE_UNICODE_SURROGATES_IN_UTF8 is off by default), a lone surrogate as itself.
_SURROGATES = re.compile("[\\ud800-\\udfff\\U00010000-\\U0010ffff]")


def _escape_surrogates(match: re.Match[str]) -> str:
    return _surrogate_escape(match.group())


def _surrogate_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04X}\\u{0xDC00 + (code & 0x3FF):04X}"


def quote(text: str) -> str:
    """A JSON string as Jackson writes it."""
    text = text.translate(JSON_ESCAPES)
    if not text.isascii():
        text = _SURROGATES.sub(_escape_surrogates, text)
    return f'"{text}"'


def _java_float(value: float, single: bool) -> str:
    """Java's ``Double.toString``/``Float.toString`` (shortest repr digits, JDK 19+)."""
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    if single:
        f32 = struct.unpack("f", struct.pack("f", value))[0]
        if f32 == 0:  # too small for a float: Float.toString of a signed zero
            return "-0.0" if math.copysign(1.0, f32) < 0 else "0.0"
        for precision in range(9):
            text = f"{f32:.{precision}e}"
            if struct.unpack("f", struct.pack("f", float(text)))[0] == f32:
                break
        digits_dec = _two_digits_if_closer(f32, Decimal(text), _as_float32)
    else:
        digits_dec = _two_digits_if_closer(value, Decimal(repr(value)), float)
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


def _as_float32(number: Decimal) -> float:
    return float(struct.unpack("f", struct.pack("f", float(number)))[0])


def _two_digits_if_closer(
    value: float, shortest: Decimal, read: Callable[[Decimal], float]
) -> Decimal:
    """Java renders at least two digits (``d.d``): when the shortest decimal has one digit, it
    takes the two-digit decimal nearest to the exact value if that one reads back as ``value``
    too (``Double.MIN_VALUE`` is ``4.9E-324``, not ``5.0E-324``); ``read`` parses a decimal
    back as a double or a float."""
    if len(shortest.as_tuple().digits) != 1:
        return shortest
    exact = Decimal(value)
    with localcontext() as ctx:
        ctx.prec = 2
        nearest = +exact
    return nearest if read(nearest) == value else shortest


def dump(node: Any, out: list[str]) -> None:
    if node is None:
        out.append("null")
    elif node is True:
        out.append("true")
    elif node is False:
        out.append("false")
    elif isinstance(node, str):
        out.append(quote(node))
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
            out.append(quote(key) + ":")
            dump(item, out)
        out.append("}")


_ORJSON_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
)
# What orjson may write differently from Jackson: a \u escape (orjson's hex is lower case), a
# number in exponent notation (orjson: "1e-7", "1e+16"), a float of 1e7 or more or under 1e-3
# written plainly (Java switches to E notation there); a number at the root is left to the exact
# path. Found with substring searches over the text with every digit made a 0 (a regex over
# each line costs more than the rest of the fast path); text inside strings may match too:
# that value just takes the exact path.
_NUMBER_START = frozenset(b"-0123456789")
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_SMALL_FLOATS = (b":0.00", b",0.00", b"[0.00", b"-0.00")  # under 1e-3, written plainly


def _numbers_as_java(text: bytes) -> bool:
    if text[0] in _NUMBER_START:
        return False
    zeros = text.translate(_ZEROS)
    if b"0e-" in zeros or b"0e+" in zeros or b"00000000." in zeros:
        return False
    return not any(small in text for small in _SMALL_FLOATS)


# A character beyond the BMP in UTF-8 (only ever inside a string): Jackson escapes its pair.
_ASTRAL = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")
_BELOW_ASTRAL = bytes(range(0xF0))  # deleted, what is left are the lead bytes of such characters


def _escape_astral(match: re.Match[bytes]) -> bytes:
    return _surrogate_escape(match.group().decode()).encode()


def _java_floats(node: Any) -> Any:
    """``node`` with every finite float as an ``orjson.Fragment`` of Java's text for it."""
    cls = node.__class__
    if cls is float:
        return orjson.Fragment(_java_float(node, False)) if math.isfinite(node) else node
    if cls is dict:
        return {k: _java_floats(v) for k, v in node.items()}
    if cls is list:
        return [_java_floats(v) for v in node]
    return node


def dumps_fast(node: Any) -> bytes | None:
    """``node`` (JSON types only) as Jackson writes it, through orjson; None when orjson's text
    could differ (the caller then uses :func:`dump`). Floats that Java writes otherwise are
    given to orjson as Java's text; a NaN, which orjson writes as ``null``, is looked for only
    when the text has a ``null``."""
    try:
        text = orjson.dumps(node, option=_ORJSON_OPTIONS)
    except TypeError:  # Decimal, bytes, dates, Float32, non-string keys, lone surrogates
        return None
    if b"\\u" in text:
        return None
    if node.__class__ is not str:
        if not _numbers_as_java(text):
            text = orjson.dumps(_java_floats(node), option=_ORJSON_OPTIONS)
        if b"null" in text and orjson.loads(text) != node:  # a NaN or an infinity became null
            return None
    if not text.isascii() and text.translate(None, _BELOW_ASTRAL):
        text = _ASTRAL.sub(_escape_astral, text)
    return text
