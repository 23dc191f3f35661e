"""Kafka Connect's ``RegexRouter`` (``org.apache.kafka.connect.transforms.RegexRouter``) in Python.

The S3 source renames topics with it so that it never writes back into a topic the sink reads::

    transforms=AddPrefix
    transforms.AddPrefix.type=org.apache.kafka.connect.transforms.RegexRouter
    transforms.AddPrefix.regex=.*
    transforms.AddPrefix.replacement=copy_of_$0

As Kafka does: when ``regex`` matches the *whole* topic (``Matcher.matches``) the topic becomes
``replacement`` with Java's ``$n`` / ``${name}`` group references and ``\\`` escapes
(``Matcher.replaceFirst``); otherwise the topic is left unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "REGEX_ROUTER",
    "RegexRoute",
    "compile_java_regex",
    "parse_java_replacement",
    "replace_first",
]

REGEX_ROUTER = "org.apache.kafka.connect.transforms.RegexRouter"

# A literal piece of the replacement, or a group reference (int index or str name).
_Piece = tuple[str, str | int]


def compile_java_regex(pattern: str) -> re.Pattern[str]:
    """Compile a Java regex; Java's named groups ``(?<name>...)`` become Python's.

    Raises:
        ValueError: the pattern is not valid.
    """
    python = re.sub(r"(?<!\\)\(\?<(?=[A-Za-z])", "(?P<", pattern)
    try:
        return re.compile(python)
    except re.error as exc:
        raise ValueError(f"not a valid regular expression ({exc})") from None


def parse_java_replacement(replacement: str, regex: re.Pattern[str]) -> tuple[_Piece, ...]:
    """Split a ``Matcher.replaceFirst`` replacement into literal text and group references.

    ``$n`` takes as many digits as still name an existing group (Java's rule); ``${name}``
    names a group; ``\\x`` is the literal ``x``.

    Raises:
        ValueError: a dangling ``\\`` or ``$``, or a reference to a group the regex lacks.
    """
    pieces: list[_Piece] = []
    text: list[str] = []
    i, n = 0, len(replacement)

    def flush() -> None:
        if text:
            pieces.append(("text", "".join(text)))
            text.clear()

    while i < n:
        c = replacement[i]
        if c == "\\":
            if i + 1 >= n:
                raise ValueError("character to be escaped is missing")
            text.append(replacement[i + 1])
            i += 2
        elif c == "$":
            i += 1
            if i >= n:
                raise ValueError("Illegal group reference: group index is missing")
            if replacement[i] == "{":
                end = replacement.find("}", i)
                name = replacement[i + 1 : end] if end > 0 else ""
                if not name or name not in regex.groupindex:
                    raise ValueError(f"No group with name {{{name}}}")
                flush()
                pieces.append(("group", name))
                i = end + 1
            elif replacement[i].isdigit():
                group = int(replacement[i])
                if group > regex.groups:
                    raise ValueError(f"No group {group}")
                i += 1
                while i < n and replacement[i].isdigit():
                    longer = group * 10 + int(replacement[i])
                    if longer > regex.groups:
                        break
                    group, i = longer, i + 1
                flush()
                pieces.append(("group", group))
            else:
                raise ValueError("Illegal group reference")
        else:
            text.append(c)
            i += 1
    flush()
    return tuple(pieces)


def replace_first(pattern: re.Pattern[str], pieces: tuple[_Piece, ...], text: str) -> str:
    """``Matcher.replaceFirst``: the first match of ``pattern`` in ``text`` replaced."""
    m = pattern.search(text)
    if m is None:
        return text
    out = [text[: m.start()]]
    for kind, value in pieces:
        out.append(str(value) if kind == "text" else m.group(value) or "")
    out.append(text[m.end() :])
    return "".join(out)


@lru_cache(maxsize=64)
def _compiled(regex: str, replacement: str) -> tuple[re.Pattern[str], tuple[_Piece, ...]]:
    pattern = compile_java_regex(regex)
    return pattern, parse_java_replacement(replacement, pattern)


@dataclass(frozen=True, slots=True)
class RegexRoute:
    """One RegexRouter transform: ``regex`` and ``replacement`` as the user wrote them."""

    regex: str
    replacement: str

    def __post_init__(self) -> None:
        _compiled(self.regex, self.replacement)

    def apply(self, topic: str) -> str:
        """The renamed topic, or ``topic`` itself when the regex does not match all of it."""
        pattern, pieces = _compiled(self.regex, self.replacement)
        if pattern.fullmatch(topic) is None:
            return topic
        return replace_first(pattern, pieces, topic)
