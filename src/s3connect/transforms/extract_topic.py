"""Confluent's ``io.confluent.connect.transforms.ExtractTopic$Key`` / ``$Value`` / ``$Header``
(from ``confluentinc/connect-transforms``, not part of Kafka): the topic becomes a string taken
from the record, as Confluent documents it.

- ``$Key`` / ``$Value`` with ``field`` empty (the default): the whole key or value, which must
  be a string.
- With ``field``: that field of the struct or map; ``field.format=JSON_PATH`` reads ``field`` as
  a JSON path (``$.a.b``, ``$["a"]["b"]``, ``$.list[0]``) for a nested field, ``PLAIN`` (the
  default) as a top-level field name.
- ``$Header``: the (last) header named ``field`` (required, ``PLAIN`` only), as its UTF-8 text.

A missing or null source fails the record unless ``skip.missing.or.null=true``, which leaves the
topic as it was. A non-string source fails the record (Confluent documents strings only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.transforms.base import DataError, Side, Transformation, operating, with_topic
from s3connect.transforms.settings import Settings

__all__ = ["EXTRACT_TOPIC", "ExtractTopic", "parse_json_path"]

EXTRACT_TOPIC = "io.confluent.connect.transforms.ExtractTopic"

_STEP = re.compile(
    r"\.(?P<name>[^.\[\]]+)"
    r"|\[\s*'(?P<single>(?:[^'\\]|\\.)*)'\s*\]"
    r'|\[\s*"(?P<double>(?:[^"\\]|\\.)*)"\s*\]'
    r"|\[\s*(?P<index>-?\d+)\s*\]"
)
_MISSING = object()


def parse_json_path(path: str) -> tuple[str | int, ...]:
    """The steps of a simple JSON path: names and list indexes after ``$``.

    Raises:
        ValueError: not a path of ``.name``, ``['name']``, ``["name"]`` and ``[n]`` steps
            (wildcards, filters, slices and deep scans are not supported).
    """
    if not path.startswith("$"):
        raise ValueError("a JSON path starts with $")
    steps: list[str | int] = []
    pos = 1
    while pos < len(path):
        m = _STEP.match(path, pos)
        if m is None:
            raise ValueError(
                f"unsupported JSON path syntax at position {pos}: use .name, ['name'] or [n] steps"
            )
        if m.group("index") is not None:
            steps.append(int(m.group("index")))
        else:
            name = m.group("name") or m.group("single") or m.group("double") or ""
            if name == "*":
                raise ValueError("wildcards are not supported")
            steps.append(re.sub(r"\\(.)", r"\1", name))
        pos = m.end()
    if not steps:
        raise ValueError("the path names no field")
    return tuple(steps)


@dataclass(eq=False)
class ExtractTopic(Transformation):
    """One ``ExtractTopic$Key`` / ``$Value`` / ``$Header`` (``side`` None for ``$Header``)."""

    side: Side | None
    field: str = ""
    path: tuple[str | int, ...] | None = None
    skip_missing_or_null: bool = False
    renames_topics = True

    def __post_init__(self) -> None:
        kind = "Header" if self.side is None else self.side.value
        self.class_name = f"{EXTRACT_TOPIC}${kind}"

    @classmethod
    def configure(cls, s: Settings, side: Side | None) -> ExtractTopic | None:
        """Read ``field``, ``field.format`` and ``skip.missing.or.null``."""
        allowed = "a header name" if side is None else "a field name, or empty for the whole"
        field = s.string("field", "", allowed)
        fmt = s.choice("field.format", ("PLAIN", "JSON_PATH"), "PLAIN")
        skip = s.boolean("skip.missing.or.null", False)
        if side is None and field == "":
            s.missing("field", "ExtractTopic$Header needs the name of the header")
        if side is None and fmt == "JSON_PATH":
            s.invalid("field.format", fmt, "ExtractTopic$Header supports only PLAIN")
        path = None
        if field and fmt == "JSON_PATH":
            try:
                path = parse_json_path(field)
            except ValueError as exc:
                s.invalid("field", field, f"not a supported JSON path: {exc}")
        if s.failed or field is None:
            return None
        return cls(side, field, path, skip)

    def apply(self, record: SinkRecord) -> SinkRecord:
        found = self._source(record)
        if found is _MISSING or found is None:
            if self.skip_missing_or_null:
                return record
            raise DataError(f"{self.class_name}: {self._what()} is missing or null")
        if not isinstance(found, str):
            raise DataError(
                f"{self.class_name}: {self._what()} is a {java_class(found)}, not a string"
            )
        return with_topic(record, found)

    def _what(self) -> str:
        if self.side is None:
            return f"header {self.field!r}"
        part = self.side.value.lower()
        return f"the {part}" if not self.field else f"field {self.field!r} of the {part}"

    def _source(self, record: SinkRecord) -> Any:
        if self.side is None:
            for name, data in reversed(record.headers):
                if name == self.field:
                    return None if data is None else bytes(data).decode("utf-8", "replace")
            return _MISSING
        schema, value = operating(record, self.side)
        if not self.field or value is None:
            return value
        steps: tuple[str | int, ...] = self.path if self.path is not None else (self.field,)
        return _walk(schema, value, steps)


def _walk(schema: ConnectSchema | None, value: Any, steps: tuple[str | int, ...]) -> Any:
    for step in steps:
        if value is None:
            return _MISSING
        if isinstance(step, int):
            if not isinstance(value, list | tuple) or not -len(value) <= step < len(value):
                return _MISSING
            value = value[step]
            schema = schema.value_schema if schema is not None else None
            continue
        if not isinstance(value, Mapping):
            raise DataError(
                f"ExtractTopic: cannot read field {step!r} of a {java_class(value, schema)}"
            )
        if schema is not None and schema.type is Type.STRUCT:
            field = schema.field(step)
            if field is None:
                return _MISSING
            value, schema = value.get(step), field.schema
        else:
            if step not in value:
                return _MISSING
            value = value[step]
            schema = schema.value_schema if schema is not None else None
    return value
