"""Java ``.properties`` text, parsed exactly as ``java.util.Properties.load`` does."""

from __future__ import annotations

import re

from s3connect.errors import ConfigError

__all__ = ["parse_properties"]

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse_properties(text: str) -> dict[str, str]:
    """Parse Java ``.properties`` text exactly as ``java.util.Properties.load`` does.

    Handles ``key=value``, ``key: value`` and ``key value``, ``#``/``!`` comment lines,
    backslash line continuations and the escapes ``\\t \\n \\r \\f \\uXXXX`` (any other
    escaped character stands for itself). Later keys win.
    """
    result: dict[str, str] = {}
    lines = re.split(r"\r\n|\r|\n", text)
    i = 0
    while i < len(lines):
        line = lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line):
            line = line[:-1]
            if i >= len(lines):
                break
            line += lines[i].lstrip(" \t\f")
            i += 1
        key, value = _split_property(line)
        result[_unescape(key)] = _unescape(value)
    return result


def _continues(line: str) -> bool:
    n = len(line) - len(line.rstrip("\\"))
    return n % 2 == 1


def _split_property(line: str) -> tuple[str, str]:
    j, n = 0, len(line)
    has_sep = False
    while j < n:
        c = line[j]
        if c == "\\":
            j += 2
            continue
        if c in "=:":
            has_sep = True
            break
        if c in " \t\f":
            break
        j += 1
    key = line[:j]
    j += 1
    while j < n:
        c = line[j]
        if c not in " \t\f":
            if not has_sep and c in "=:":
                has_sep = True
            else:
                break
        j += 1
    return key, line[j:]


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    j, n = 0, len(s)
    while j < n:
        c = s[j]
        if c != "\\" or j + 1 >= n:
            if c != "\\":
                out.append(c)
            j += 1
            continue
        c = s[j + 1]
        if c == "u":
            digits = s[j + 2 : j + 6]
            if len(digits) != 4 or not all(ch in "0123456789abcdefABCDEF" for ch in digits):
                raise ConfigError(f"properties text is invalid: malformed \\uxxxx escape in {s!r}")
            out.append(chr(int(digits, 16)))
            j += 6
        else:
            out.append(_ESCAPES.get(c, c))
            j += 2
    return "".join(out)
