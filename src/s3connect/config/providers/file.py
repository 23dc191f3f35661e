"""Kafka's ``FileConfigProvider``: ``${file:/path/to/file.properties:key}``, one key of a
properties file read as Java 17's ``Properties.load`` reads it (UTF-8)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar, Self

from s3connect.config.providers.base import (
    AllowedPaths,
    ProviderContext,
    Unresolved,
)

__all__ = ["FileConfigProvider", "load_properties"]


class FileConfigProvider:
    """Keys of properties files; ``allowed.paths`` limits which files."""

    CLASS_NAME: ClassVar[str] = "org.apache.kafka.common.config.provider.FileConfigProvider"
    PARAMS: ClassVar[tuple[str, ...]] = (AllowedPaths.PARAM,)

    def __init__(self, allowed: AllowedPaths) -> None:
        self._allowed = allowed
        self._files: dict[str, dict[str, str] | Unresolved] = {}

    @classmethod
    def configure(cls, params: Mapping[str, str], context: ProviderContext) -> Self:
        """A provider reading the files ``allowed.paths`` allows.

        Raises:
            InvalidParam: on an ``allowed.paths`` entry that is not absolute or does not exist.
        """
        return cls(AllowedPaths(params.get(AllowedPaths.PARAM)))

    def get(self, path: str, key: str) -> str:
        """The value of ``key`` in the properties file ``path`` (each file is read once)."""
        if not path:
            raise Unresolved("needs a file: ${<provider>:<path>:<key>}")
        if path not in self._files:
            try:
                self._files[path] = self._read(path)
            except Unresolved as exc:
                self._files[path] = exc
        properties = self._files[path]
        if isinstance(properties, Unresolved):
            raise properties
        if key not in properties:
            raise Unresolved(f"properties file {path} has no key {key}")
        return properties[key]

    def _read(self, path: str) -> dict[str, str]:
        readable = self._allowed.check(path)
        try:
            with open(readable, "rb") as f:
                text = f.read().decode("utf-8")
        except OSError as exc:
            raise Unresolved(f"cannot read {path}: {exc.strerror or type(exc).__name__}") from None
        except UnicodeDecodeError:
            raise Unresolved(f"cannot read {path}: not UTF-8 text") from None
        try:
            return load_properties(text)
        except ValueError as exc:
            raise Unresolved(f"cannot read {path}: {exc}") from None


# ----------------------------------------------------------------- java.util.Properties.load

_BLANKS = " \t\f"
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_HEX = frozenset("0123456789abcdefABCDEF")


def load_properties(text: str) -> dict[str, str]:
    """Properties text read as Java 17's ``Properties.load(Reader)``: ``key=value``,
    ``key: value`` or ``key value``; ``#`` and ``!`` comment lines (never continued); a line
    ending in an odd number of backslashes continues on the next, whose leading blanks are
    dropped; escapes ``\\t \\n \\r \\f \\uXXXX``, any other escaped character is itself.
    Later keys win.

    Raises:
        ValueError: on a malformed ``\\uXXXX`` escape (the message quotes no text of the file).
    """
    lines = re.split(r"\r\n|\r|\n", text)
    n, i = len(lines), 0
    result: dict[str, str] = {}
    logical = ""
    while i < n:
        line = lines[i].lstrip(_BLANKS)
        i += 1
        if not logical and line[:1] in ("", "#", "!"):
            continue  # blank or comment, also right after a backslash that was all the line held
        logical += line
        if _continues(logical):
            logical = logical[:-1]
            # Java keeps the line, even empty, when the file ends right after the backslash
            if i < n - 1 or (i == n - 1 and (lines[i] or text.endswith("\r\n"))):
                continue
        key, value = _split(logical)
        result[_unescape(key, i)] = _unescape(value, i)
        logical = ""
    return result


def _continues(line: str) -> bool:
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def _split(line: str) -> tuple[str, str]:
    """Key and value of a logical line, as ``Properties.load0`` splits them."""
    n, j, separated = len(line), 0, False
    while j < n:
        c = line[j]
        if c == "\\":
            j += 2
            continue
        if c in "=:" or c in _BLANKS:
            separated = c in "=:"
            break
        j += 1
    key, j = line[:j], j + 1
    while j < n:
        c = line[j]
        if c not in _BLANKS:
            if separated or c not in "=:":
                break
            separated = True
        j += 1
    return key, line[j:]


def _unescape(s: str, line: int) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    j, n = 0, len(s)
    while j < n:
        c = s[j]
        j += 1
        if c != "\\":
            out.append(c)
        elif j < n and s[j] == "u":
            digits = s[j + 1 : j + 5]
            if len(digits) != 4 or not _HEX.issuperset(digits):
                raise ValueError(f"malformed \\uxxxx escape (line {line})")
            out.append(chr(int(digits, 16)))
            j += 5
        elif j < n:
            out.append(_ESCAPES.get(s[j], s[j]))
            j += 1
    return _join_surrogates("".join(out))


def _join_surrogates(s: str) -> str:
    """Java strings are UTF-16: ``\\ud83d\\ude00`` is one character."""
    if not any("\ud800" <= c <= "\udfff" for c in s):
        return s
    try:
        return s.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        return s
