"""Header transforms: ``DropHeaders``, ``HeaderFrom$Key``/``$Value`` and ``InsertHeader``.

Our records keep headers as the bytes Kafka carries, so a header these transforms add is written
as Kafka Connect's default header converter (``SimpleHeaderConverter``) would serialize it: the
UTF-8 of ``Values.convertToString(schema, value)``, or a null header for a null value.
``InsertHeader``'s literal goes through ``Values.parseString`` first, as in Kafka (``1.50``
becomes the float32 1.5, written ``1.5``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from s3connect.connect.java_types import schema_text
from s3connect.connect.records import Header, SinkRecord
from s3connect.connect.schema import ConnectSchema, Field
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    DataError,
    Side,
    Transformation,
    operating,
    with_headers,
    with_key,
    with_value,
)
from s3connect.transforms.header_converter import from_connect_header
from s3connect.transforms.settings import REQUIRED, Settings
from s3connect.transforms.structs import (
    SchemaCache,
    check_put,
    field_value,
    require_map,
    require_struct,
    struct_schema,
)
from s3connect.transforms.value_parser import parse_string

__all__ = ["DropHeaders", "HeaderFrom", "InsertHeader", "header_bytes"]


def header_bytes(schema: ConnectSchema | None, value: Any) -> bytes | None:
    """``SimpleHeaderConverter.fromConnectHeader``, after ``ConnectHeaders.add``'s check.

    Raises:
        DataError: a null value with a required schema, or a value Connect cannot serialize.
    """
    if value is None:
        if schema is not None and not schema.optional:
            raise DataError(
                f"A null value requires an optional schema but was {schema_text(schema)}"
            )
        return None
    return from_connect_header(schema, value)


@dataclass(eq=False)
class DropHeaders(Transformation):
    """``DropHeaders``: removes every header with one of the names."""

    names: frozenset[str]
    class_name = f"{KAFKA_PACKAGE}.DropHeaders"

    @classmethod
    def configure(cls, s: Settings) -> DropHeaders | None:
        """Read ``headers``."""
        names = s.non_empty_list("headers", "the names of the headers to remove")
        return None if names is None else cls(frozenset(names))

    def apply(self, record: SinkRecord) -> SinkRecord:
        kept = tuple(h for h in record.headers if h[0] not in self.names)
        return with_headers(record, kept)


@dataclass(eq=False)
class InsertHeader(Transformation):
    """``InsertHeader``: adds one header with a literal value to every record."""

    header: str
    value: bytes | None
    class_name = f"{KAFKA_PACKAGE}.InsertHeader"

    @classmethod
    def configure(cls, s: Settings) -> InsertHeader | None:
        """Read ``header`` and ``value.literal``."""
        header = s.string("header", REQUIRED, "the name of the header")
        literal = s.string("value.literal", REQUIRED, "the header's value")
        if header is None or literal is None:
            return None
        try:
            parsed = parse_string(literal)
            value = None if parsed is None else header_bytes(parsed[0], parsed[1])
        except DataError as exc:
            s.invalid("value.literal", literal, str(exc))
            return None
        except RecursionError:  # nested deeper than Python parses: Kafka keeps such a text
            value = literal.encode("utf-8")
        return cls(header, value)

    def apply(self, record: SinkRecord) -> SinkRecord:
        return with_headers(record, (*record.headers, (self.header, self.value)))


@dataclass(eq=False)
class HeaderFrom(Transformation):
    """``HeaderFrom``: copies or moves fields of the key or value into headers."""

    side: Side
    fields: list[str]
    headers: list[str]
    move: bool
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.HeaderFrom${self.side.value}"
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> HeaderFrom | None:
        """Read ``fields``, ``headers``, ``operation`` and ``replace.null.with.default``."""
        fields = s.non_empty_list("fields", "the field names whose values go into headers")
        headers = s.non_empty_list("headers", "the header names, in the order of fields")
        operation = s.choice("operation", ("move", "copy"), REQUIRED)
        replace_null = s.boolean("replace.null.with.default", True)
        if fields is not None and headers is not None and len(fields) != len(headers):
            s.problem(
                f"{s.key('fields')} and {s.key('headers')} are invalid: 'fields' config must "
                "have the same number of elements as 'headers' config."
            )
        if fields is None or headers is None or operation is None or s.failed:
            return None
        return cls(side, fields, headers, operation == "move", replace_null)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        purpose = f"header {'move' if self.move else 'copy'}"
        added: list[Header] = []
        if schema is None:
            current = require_map(value, purpose)
            updated = dict(current)
            for name, header in zip(self.fields, self.headers, strict=True):
                if self.move:
                    updated.pop(name, None)
                added.append((header, header_bytes(None, current.get(name))))
            return self._record(record, None, updated, added)
        struct = require_struct(schema, value, purpose)
        new_schema, new_value = schema, struct
        if self.move:
            new_schema = self._moved_schema(schema)
            new_value = {f.name: check_put(f, self._get(struct, f)) for f in new_schema.fields}
        for name, header in zip(self.fields, self.headers, strict=True):
            field = schema.field(name)
            if field is None:
                raise DataError(  # Kafka's NullPointerException
                    'Cannot invoke "org.apache.kafka.connect.data.Field.schema()" because the '
                    'return value of "org.apache.kafka.connect.data.Schema.field(String)" is null'
                )
            added.append((header, header_bytes(field.schema, self._get(struct, field))))
        return self._record(record, new_schema, new_value, added)

    def _get(self, struct: Mapping[str, Any], field: Field) -> Any:
        return field_value(struct, field, self.replace_null_with_default)

    def _moved_schema(self, schema: ConnectSchema) -> ConnectSchema:
        moved: ConnectSchema | None = self._cache.get(schema)
        if moved is None:
            kept = [f for f in schema.fields if f.name not in self.fields]
            moved = struct_schema(kept, basics=schema)
            self._cache.put(schema, moved)
        return moved

    def _record(
        self, record: SinkRecord, schema: ConnectSchema | None, value: Any, added: list[Header]
    ) -> SinkRecord:
        headers = (*record.headers, *added)
        if self.side is Side.KEY:
            return with_headers(with_key(record, schema, value), headers)
        return with_headers(with_value(record, schema, value), headers)
