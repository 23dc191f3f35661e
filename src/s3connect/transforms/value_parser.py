"""``Values.parseString``: what ``SimpleHeaderConverter`` reads from a header's text, and what
``InsertHeader`` makes of its ``value.literal`` (a port of Connect's ``ValueParser``).

``true``/``false`` become booleans, integers the narrowest of int8..int64, other numbers float32,
float64 or a Decimal, ``[...]`` and ``{...}`` lists and maps (falling back to the text when they
do not parse), ISO dates, times and timestamps the Connect logical types; anything else stays the
string it was.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import LONG_MAX, LONG_MIN, LinkedHashMap
from s3connect.connect.logical import (
    DATE_SCHEMA,
    EPOCH,
    EPOCH_DAY,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    decimal_schema,
)
from s3connect.connect.schema import DATE, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.date_format import DAY_MS
from s3connect.transforms.jvm import java_trim, parse_big_decimal, to_float32
from s3connect.transforms.simple_date_format import SimpleDateFormat
from s3connect.transforms.values import (
    ISO_DATE,
    ISO_TIME,
    ISO_TIMESTAMP,
    as_long,
    convert_number,
    date_from_days,
    is_temporal,
    time_from_millis,
    timestamp_from_millis,
)

__all__ = ["Parser", "SchemaAndValue", "parse_string"]

SchemaAndValue = tuple[ConnectSchema | None, Any]

_STRING = ConnectSchema(Type.STRING)
_BOOLEAN = ConnectSchema(Type.BOOLEAN)
_INTS = {t: ConnectSchema(t) for t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64)}
_DATE, _TIME, _TIMESTAMP = DATE_SCHEMA, TIME_SCHEMA, TIMESTAMP_SCHEMA
_TEMPORALS = {
    len(ISO_TIME) - 2: (_TIME, SimpleDateFormat(ISO_TIME)),
    len(ISO_TIMESTAMP) - 4: (_TIMESTAMP, SimpleDateFormat(ISO_TIMESTAMP)),
    len(ISO_DATE): (_DATE, SimpleDateFormat(ISO_DATE)),
}
_DELIMITERS = frozenset(':,{}[]"')
_BIGGER_THAN_LONG = Decimal("1e19")  # Kafka 4.x: beyond it a number is no integer type


def parse_string(text: str | None) -> SchemaAndValue | None:
    """``Values.parseString``: (schema, value), or None for ``null`` (and for None)."""
    if text is None:
        return (None, None)
    if text == "":
        return (_STRING, text)
    return _ValueParser(Parser(text)).parse(embedded=False)


def _is_blank(text: str) -> bool:
    return java_trim(text) == ""


class Parser:
    """``Values.Parser``, Connect's tokenizer: delimiters ``:,{}[]"`` (unless escaped) are
    tokens of their own."""

    def __init__(self, original: str) -> None:
        self.original = original
        self.index = 0
        self.next_token: str | None = None
        self.previous: str | None = None

    def position(self) -> int:
        """Where the characters not yet read start."""
        return self.index

    def mark(self) -> int:
        """Where the next token starts (for :meth:`rewind_to`)."""
        return self.index - (len(self.next_token) if self.next_token is not None else 0)

    def rewind_to(self, position: int) -> None:
        """Read again from ``position``."""
        self.index, self.next_token, self.previous = position, None, None

    def has_next(self) -> bool:
        """Whether a token is left."""
        return self.next_token is not None or self.index < len(self.original)

    def next(self) -> str:
        """The next token."""
        if self.next_token is not None:
            self.previous, self.next_token = self.next_token, None
        else:
            self.previous = self._consume()
        return self.previous

    def next_n(self, n: int) -> str | None:
        """``next(int)``: the text of the next ``n`` tokens, or None (nothing read) if fewer."""
        start = self.mark()
        for _ in range(n):
            if not self.has_next():
                self.rewind_to(start)
                return None
            self.next()
        return self.original[start : self.index]

    def _consume(self) -> str:
        escaped, start, text = False, self.index, self.original
        while self.index < len(text):
            c = text[self.index]
            if c == "\\":
                escaped = not escaped
            elif c in _DELIMITERS and not escaped:
                if start < self.index:
                    return text[start : self.index]
                self.index += 1
                return text[start : start + 1]
            else:
                escaped = False
            self.index += 1
        return text[start : self.index]

    def can_consume(self, expected: str, ignore_whitespace: bool = True) -> bool:
        """Consume the next token if it is ``expected`` (blank tokens and the spaces around it
        skipped unless ``ignore_whitespace`` is false)."""
        if self.next_token is None:
            if not self.has_next():
                return False
            self.next_token = self._consume()
        if ignore_whitespace:
            while _is_blank(self.next_token) and self.index < len(self.original):
                self.next_token = self._consume()
        token = java_trim(self.next_token) if ignore_whitespace else self.next_token
        if token == expected:
            self.next_token = None
            return True
        return False


class _SchemaMerger:
    def __init__(self) -> None:
        self.common: ConnectSchema | None = None
        self.compatible = True

    def merge(self, latest: SchemaAndValue | None) -> None:
        if latest is None or latest[0] is None or not self.compatible:
            return
        if self.common is None:
            self.common = latest[0]
        else:
            self.common = _merge_schemas(self.common, latest[0])
            self.compatible = self.common is not None


_WIDER = {
    Type.INT8: (Type.INT16, Type.INT32, Type.INT64, Type.FLOAT32, Type.FLOAT64),
    Type.INT16: (Type.INT32, Type.INT64, Type.FLOAT32, Type.FLOAT64),
    Type.INT32: (Type.INT64, Type.FLOAT32, Type.FLOAT64),
    Type.INT64: (Type.FLOAT32, Type.FLOAT64),
    Type.FLOAT32: (Type.FLOAT64,),
    Type.FLOAT64: (),
}


def _merge_schemas(previous: ConnectSchema, new: ConnectSchema) -> ConnectSchema | None:
    """``Values.mergeSchemas``: the wider of two numeric types, else the latest of one type."""
    if previous.type is not new.type:
        if previous.type not in _WIDER or new.type not in _WIDER:
            return None
        if new.type in _WIDER[previous.type]:
            return new
        return previous if previous.type in _WIDER[new.type] else None
    if previous.optional == new.optional:
        return previous if previous.optional else new
    return previous if previous == new else None


class _ValueParser:
    def __init__(self, parser: Parser) -> None:
        self.p = parser

    def _single_literal(self, embedded: bool, literal: str) -> bool:
        start = self.p.mark()
        if self.p.can_consume(literal) and (embedded or not self.p.has_next()):
            return True
        self.p.rewind_to(start)
        return False

    def parse(self, embedded: bool) -> SchemaAndValue | None:
        p = self.p
        if not p.has_next():
            return None
        if embedded and p.can_consume('"'):
            return self._quoted_string()
        if self._single_literal(embedded, "null"):
            return None
        if self._single_literal(embedded, "true"):
            return (_BOOLEAN, True)
        if self._single_literal(embedded, "false"):
            return (_BOOLEAN, False)
        start = p.mark()
        try:
            if p.can_consume("["):
                return self._array()
            if p.can_consume("{"):
                return self._map()
        except DataError:
            p.rewind_to(start)
        token = p.next()
        if _is_blank(token):
            return (_STRING, token)
        return self._next_token(embedded, java_trim(token))

    def _next_token(self, embedded: bool, token: str) -> SchemaAndValue:
        first = token[0]
        if first.isdecimal():
            temporal = self._multiple_tokens_as_temporal(token)
            if temporal is not None:
                return temporal
        if first.isdecimal() or first in "+-":
            number = _parse_number(token)
            if number is not None:
                return number
        if embedded:
            raise DataError("Failed to parse embedded value")
        return (_STRING, self.p.original)

    def _quoted_string(self) -> SchemaAndValue:
        parts: list[str] = []
        while self.p.has_next():
            if self.p.can_consume('"'):
                break
            parts.append(self.p.next())
        content = "".join(parts)
        temporal = _parse_temporal(content)
        return temporal if temporal is not None else (_STRING, content)

    def _array(self) -> SchemaAndValue:
        p, merger = self.p, _SchemaMerger()
        result: list[Any] = []
        while p.has_next():
            if p.can_consume("]"):
                if merger.common is not None:
                    schema = ConnectSchema(Type.ARRAY, value_schema=merger.common)
                    return (schema, [_align(merger.common, v) for v in result])
                return (ConnectSchema(Type.ARRAY), result)
            if p.can_consume(","):
                raise DataError(f"Unable to parse an empty array element: {p.original}")
            element = self.parse(embedded=True)
            merger.merge(element)
            result.append(element[1] if element is not None else None)
            position = p.mark()
            if p.can_consume("]"):
                p.rewind_to(position)
            elif not p.can_consume(","):
                raise DataError("Array elements missing ',' delimiter")
        if p.previous == ",":
            raise DataError(f"Array is missing element after ',': {p.original}")
        raise DataError(f"Array is missing terminating ']': {p.original}")

    def _map(self) -> SchemaAndValue:
        p = self.p
        result: dict[Any, Any] = LinkedHashMap()
        keys, values = _SchemaMerger(), _SchemaMerger()
        while p.has_next():
            if p.can_consume("}"):
                return _map_result(result, keys.common, values.common)
            if p.can_consume(","):
                raise DataError(f"Unable to parse a map entry with no key or value: {p.original}")
            key = self.parse(embedded=True)
            if key is None or key[1] is None:
                raise DataError(f"Map entry may not have a null key: {p.original}")
            if not p.can_consume(":"):
                raise DataError(f"Map entry is missing ':' at {p.index} in {p.original}")
            value = self.parse(embedded=True)
            result[_hashable(key[1])] = value[1] if value is not None else None
            p.can_consume(",")
            keys.merge(key)
            values.merge(value)
        if p.previous == ",":
            raise DataError(f"Map is missing element after ',': {p.original}")
        raise DataError(f"Map is missing terminating '}}': {p.original}")

    def _multiple_tokens_as_temporal(self, token: str) -> SchemaAndValue | None:
        position = self.p.mark()
        remainder = self.p.next_n(4)
        if remainder is not None:
            temporal = _parse_temporal(token + remainder)
            if temporal is not None:
                return temporal
        self.p.rewind_to(position)
        return _parse_temporal(token)


class _KeyMap(LinkedHashMap):
    """A map parsed as a map key: Java's maps may be keys of a map, Python's dicts may not."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))


def _hashable(key: Any) -> Any:
    """A parsed map key as a dict key: a list becomes a tuple, a map a hashable map."""
    if isinstance(key, list):
        return tuple(_hashable(k) for k in key)
    if isinstance(key, dict):
        return _KeyMap((_hashable(k), _hashable(v)) for k, v in key.items())
    return key


def _map_result(
    result: dict[Any, Any], key_schema: ConnectSchema | None, value_schema: ConnectSchema | None
) -> SchemaAndValue:
    if key_schema is not None and value_schema is not None:
        schema = ConnectSchema(Type.MAP, key_schema=key_schema, value_schema=value_schema)
        aligned = ((_align(key_schema, k), _align(value_schema, v)) for k, v in result.items())
        return (schema, LinkedHashMap(aligned))
    if key_schema is not None:
        schema = ConnectSchema(Type.MAP, key_schema=key_schema)
        return (schema, LinkedHashMap((_align(key_schema, k), v) for k, v in result.items()))
    return (ConnectSchema(Type.MAP), result)


_FROM_NUMBER = {DATE: date_from_days, TIME: time_from_millis, TIMESTAMP: timestamp_from_millis}


def _align(schema: ConnectSchema, value: Any) -> Any:
    """``Values.convertTo(schema, null, value)`` of a parsed value to the common schema of its
    list or map (``alignListEntriesWithSchema``): the schemas merge only numbers, so a value is
    widened to its number type (a number next to a date is read as its days, next to a time or
    timestamp as its milliseconds), or kept.

    Raises:
        DataError: a null to a required schema (the list or map is then read as text).
    """
    if value is None:
        if schema.optional:
            return None
        raise DataError("Unable to convert a null value to a schema that requires a value")
    if schema.name in _FROM_NUMBER:
        return value if is_temporal(value) else _FROM_NUMBER[schema.name](as_long(value))
    if schema.name is None and schema.type in _WIDER:
        return convert_number(value, schema.type)
    return value


def _parse_number(token: str) -> SchemaAndValue | None:
    """``parseAsNumber``: the narrowest integer type, else float32, float64 or a Decimal."""
    try:
        decimal = parse_big_decimal(token)
    except ValueError:
        return None
    exponent = decimal.as_tuple().exponent
    assert isinstance(exponent, int)
    scale = -exponent
    if decimal.copy_abs() <= _BIGGER_THAN_LONG and decimal == decimal.to_integral_value():
        integral = int(decimal)
        if LONG_MIN <= integral <= LONG_MAX:
            for kind, bits in ((Type.INT8, 8), (Type.INT16, 16), (Type.INT32, 32)):
                if -(2 ** (bits - 1)) <= integral < 2 ** (bits - 1):
                    return (_INTS[kind], integral)
            return (_INTS[Type.INT64], integral)
    as_float = to_float32(float(decimal))
    if abs(as_float) != float("inf") and scale != 0:
        return (ConnectSchema(Type.FLOAT32), as_float)
    as_double = float(decimal)
    if abs(as_double) != float("inf") and scale != 0:
        return (ConnectSchema(Type.FLOAT64), as_double)
    return (decimal_schema(scale), decimal)


def _parse_temporal(token: str) -> SchemaAndValue | None:
    """``parseAsTemporal``: an ISO time, timestamp or date, told apart by length."""
    token = token.replace("\\:", ":")
    found = _TEMPORALS.get(len(token))
    if found is None:
        return None
    schema, formatter = found
    parsed = formatter.parse(token)
    if parsed is None or parsed[1] == 0:
        return None
    millis = parsed[0]
    try:
        if schema is _DATE and millis % DAY_MS == 0:
            return (schema, EPOCH_DAY + timedelta(days=millis // DAY_MS))
        if schema is _TIME and 0 <= millis < DAY_MS:
            return (schema, (EPOCH + timedelta(milliseconds=millis)).time())
        return (schema, EPOCH + timedelta(milliseconds=millis))
    except OverflowError:
        return None
