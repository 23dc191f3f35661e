"""Kafka's ``field.syntax.version`` (KIP-821) and ``SingleFieldPath``: ``V1`` names a top-level
field as written; ``V2`` reads a dotted path to a nested field, where a step holding dots is
wrapped in backticks (``\\``` escapes a backtick followed by a dot)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.structs import field_value, require_map, require_struct

__all__ = ["FIELD_SYNTAX_VERSION", "SingleFieldPath", "parse_v2_path"]

FIELD_SYNTAX_VERSION = "field.syntax.version"
"""The config key; its values are ``V1`` (the default) and ``V2``, in any case."""


def parse_v2_path(path: str) -> tuple[str, ...]:
    """The steps of a ``V2`` path (``SingleFieldPath.buildFieldPathV2``).

    Raises:
        ValueError: an unclosed backtick pair (Kafka's message).
    """
    steps: list[str] = []
    idx, n = 0, len(path)
    while 0 <= idx < n:
        if path[idx] != "`":
            end = path.find(".", idx)
            steps.append(path[idx:] if end < 0 else path[idx:end])
            idx = -1 if end < 0 else end + 1
            continue
        backtick_at, idx = idx, idx + 1
        field: list[str] = []
        start = idx
        while True:
            idx = path.find("`", idx)
            if idx == -1:
                raise ValueError(_incomplete(path, backtick_at))
            escaped = path[idx - 1] == "\\"
            if idx >= n - 1:
                if escaped:
                    raise ValueError(_incomplete(path, backtick_at))
                field.append(path[start:idx])
                steps.append("".join(field))
                idx += 1
                break
            if path[idx + 1] != ".":
                idx += 1
                continue
            if escaped:
                field.append(path[start : idx - 1] + "`")
                idx += 1
                start = idx
                continue
            field.append(path[start:idx])
            steps.append("".join(field))
            idx += 2
            break
    if path.endswith("."):
        steps.append("")
    return tuple(steps)


def _incomplete(path: str, backtick_at: int) -> str:
    return (
        f"Incomplete backtick pair in path: [{path}], consider adding a backslash before "
        f"backtick at position {backtick_at} to escape it"
    )


def _struct_field(schema: ConnectSchema, name: str) -> Field | None:
    """``ConnectSchema.field``: a struct's field, or None.

    Raises:
        DataError: the schema is not a struct's.
    """
    if schema.type is not Type.STRUCT:
        raise DataError("Cannot look up fields on non-struct type")
    return schema.field(name)


@dataclass(frozen=True, slots=True)
class SingleFieldPath:
    """A path to one (possibly nested) field."""

    text: str
    steps: tuple[str, ...]

    @classmethod
    def of(cls, text: str, version: str) -> SingleFieldPath:
        """The path ``text`` in syntax ``V1`` or ``V2``.

        Raises:
            ValueError: a malformed ``V2`` path, or an empty one (it names no field).
        """
        steps = (text,) if version == "V1" else parse_v2_path(text)
        if not steps:
            raise ValueError("the path is empty: it names no field")
        return cls(text, steps)

    def field_from(self, schema: ConnectSchema | None) -> Field | None:
        """The field's schema entry, or None when the schema has no such field.

        Raises:
            DataError: a step is a field of another type than struct (Kafka's
                ``Schema.field`` on it).
        """
        current = schema
        for step in self.steps[:-1]:
            if current is None:
                return None
            found = _struct_field(current, step)
            if found is None:
                return None
            current = found.schema
        return None if current is None else _struct_field(current, self.steps[-1])

    def value_from_struct(
        self, schema: ConnectSchema, struct: Mapping[str, Any] | None, with_default: bool = True
    ) -> Any:
        """The field's value in a struct (None when absent); nested structs must be structs."""
        current, current_schema = struct, schema
        for step in self.steps[:-1]:
            if current is None:
                return None
            field = current_schema.field(step)
            if field is None:
                return None
            sub = field_value(current, field)
            if sub is None:
                return None
            current = require_struct(field.schema, sub, "nested field access")
            current_schema = field.schema
        if current is None:
            return None
        last = current_schema.field(self.steps[-1])
        return None if last is None else field_value(current, last, with_default)

    def value_from_map(self, value: Mapping[str, Any] | None) -> Any:
        """The field's value in a schemaless map (None when absent)."""
        current = value
        for step in self.steps[:-1]:
            if current is None:
                return None
            sub = current.get(step)
            current = None if sub is None else require_map(sub, "nested field access")
        return None if current is None else current.get(self.steps[-1])
