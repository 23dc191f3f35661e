"""Kafka Connect converters: raw Kafka key/value bytes -> (value, ConnectSchema | None).

Behaviour follows Kafka's ``org.apache.kafka.connect.json.JsonConverter``,
``org.apache.kafka.connect.storage.StringConverter`` and
``org.apache.kafka.connect.converters.ByteArrayConverter``.

Logical types are represented as Python values: ``Timestamp`` -> timezone-aware
:class:`datetime.datetime` (UTC), ``Date`` -> :class:`datetime.date`, ``Time`` ->
:class:`datetime.time`, ``Decimal`` -> :class:`decimal.Decimal` (at the schema's scale).

Converters raise :class:`ValueError` naming the cause; callers wrap it in
:class:`~s3connect.errors.ConversionError` with topic, partition and offset.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import struct
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol, runtime_checkable

from s3connect.codegen import json_to_connect_fast
from s3connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type

__all__ = [
    "EPOCH",
    "EPOCH_DAY",
    "ByteArrayConverter",
    "Converter",
    "JsonConverter",
    "StringConverter",
    "bytes_to_decimal",
    "converter_names",
    "date_to_days",
    "decimal_scale",
    "decimal_to_bytes",
    "decimal_unscaled",
    "dumps_json",
    "make_converter",
    "parse_json_schema",
    "register_converter",
    "schema_to_json",
    "time_to_millis",
    "timestamp_to_millis",
]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
EPOCH_DAY = date(1970, 1, 1)
_MS_PER_DAY = 86_400_000
_ENVELOPE_ERROR = (
    'JsonConverter with schemas.enable requires "schema" and "payload" fields and may not contain '
    "additional fields. If you are trying to deserialize plain JSON data, set schemas.enable=false "
    "in your converter configuration."
)
_INT_RANGES = {
    Type.INT8: (-(2**7), 2**7 - 1),
    Type.INT16: (-(2**15), 2**15 - 1),
    Type.INT32: (-(2**31), 2**31 - 1),
    Type.INT64: (-(2**63), 2**63 - 1),
}


@runtime_checkable
class Converter(Protocol):
    """Turns the raw bytes of a Kafka key or value into a Connect value and schema."""

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Convert ``data``; raise ValueError naming the cause when it cannot be converted."""
        ...


# ---------------------------------------------------------------------------------------------
# Logical-type helpers (Connect <-> wire representation)


def timestamp_to_millis(value: Any) -> int:
    """Epoch milliseconds of a Connect Timestamp value (naive datetimes are taken as UTC)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return int((value - EPOCH) // timedelta(milliseconds=1))
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"Timestamp value must be a datetime, got {type(value).__name__}")


def date_to_days(value: Any) -> int:
    """Days since the epoch of a Connect Date value."""
    if isinstance(value, datetime):
        value = value.date() if value.tzinfo is None else value.astimezone(UTC).date()
    if isinstance(value, date):
        return (value - EPOCH_DAY).days
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"Date value must be a date, got {type(value).__name__}")


def time_to_millis(value: Any) -> int:
    """Milliseconds since midnight of a Connect Time value."""
    if isinstance(value, time):
        return (value.hour * 3600 + value.minute * 60 + value.second) * 1000 + (
            value.microsecond // 1000
        )
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"Time value must be a time, got {type(value).__name__}")


def decimal_scale(schema: ConnectSchema) -> int:
    """The ``scale`` parameter of a Connect Decimal schema."""
    try:
        return int(schema.parameters["scale"])
    except (KeyError, ValueError) as e:
        raise ValueError("Decimal schema must have an integer 'scale' parameter") from e


def decimal_unscaled(schema: ConnectSchema, value: Any) -> int:
    """The unscaled integer of ``value`` at the schema's scale (Connect's Decimal.fromLogical)."""
    scale = decimal_scale(schema)
    if isinstance(value, int) and not isinstance(value, bool):
        value = Decimal(value)
    if not isinstance(value, Decimal):
        raise ValueError(f"Decimal value must be a decimal.Decimal, got {type(value).__name__}")
    exponent = value.as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"Decimal value {value} is not finite")
    if -exponent != scale:
        try:
            rescaled = value.quantize(Decimal(1).scaleb(-scale))
        except InvalidOperation as e:
            raise ValueError(f"Decimal {value} does not fit scale {scale}") from e
        if rescaled != value:
            raise ValueError(f"Decimal {value} has a mismatching scale for scale {scale}")
        value = rescaled
    return int(value.scaleb(scale))


def decimal_to_bytes(unscaled: int) -> bytes:
    """Big-endian two's complement, minimal length (Java's ``BigInteger.toByteArray``)."""
    length = unscaled.bit_length() // 8 + 1
    return unscaled.to_bytes(length, "big", signed=True)


def bytes_to_decimal(raw: bytes, scale: int) -> Decimal:
    """The Decimal of big-endian two's complement unscaled bytes at ``scale``."""
    return Decimal(int.from_bytes(raw, "big", signed=True)).scaleb(-scale)


# ---------------------------------------------------------------------------------------------
# JSON -> Connect


# json.loads(data, parse_float=Decimal) builds a decoder per call; one shared decoder does the
# same (bytes are decoded exactly as json.loads decodes them).
_DECODER = json.JSONDecoder(parse_float=Decimal)
_SCAN = _DECODER.scan_once  # type: ignore[attr-defined]
_JSON_WS = b" \t\n\r"
_ENVELOPE_START = b'{"schema":'
_PAYLOAD_KEY = ',"payload":'


def _loads(data: bytes) -> Any:
    try:
        if data.__class__ is bytes:
            return _DECODER.decode(data.decode(json.detect_encoding(data), "surrogatepass"))
        return json.loads(data, parse_float=Decimal)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(
            f"Converting byte[] to Kafka Connect data failed due to serialization error: {e}"
        ) from e


def _type_name(node: Any) -> str:
    if node is None:
        return "NULL"
    if isinstance(node, bool):
        return "BOOLEAN"
    if isinstance(node, int | float | Decimal):
        return "NUMBER"
    if isinstance(node, str):
        return "STRING"
    if isinstance(node, list):
        return "ARRAY"
    return "OBJECT"


def parse_json_schema(node: Any) -> ConnectSchema | None:
    """Parse a Connect JSON schema (the envelope's ``schema``), as JsonConverter.asConnectSchema.

    Args:
        node: the decoded JSON schema object, or None (schemaless).

    Raises:
        ValueError: the schema is malformed.
    """
    if node is None:
        return None
    if not isinstance(node, dict):
        raise ValueError("Schema must be a JSON object")
    type_name = node.get("type")
    if not isinstance(type_name, str):
        raise ValueError("Schema must contain 'type' field")
    try:
        schema_type = Type(type_name)
    except ValueError:
        raise ValueError(f"Unknown schema type: {type_name}") from None
    fields: tuple[Field, ...] = ()
    key_schema = value_schema = None
    if schema_type is Type.ARRAY:
        if "items" not in node or node["items"] is None:
            raise ValueError("Array schema did not specify the element type")
        value_schema = parse_json_schema(node["items"])
    elif schema_type is Type.MAP:
        if node.get("keys") is None:
            raise ValueError("Map schema did not specify the key type")
        if node.get("values") is None:
            raise ValueError("Map schema did not specify the value type")
        key_schema = parse_json_schema(node["keys"])
        value_schema = parse_json_schema(node["values"])
    elif schema_type is Type.STRUCT:
        raw_fields = node.get("fields")
        if not isinstance(raw_fields, list):
            raise ValueError('Struct schema\'s "fields" argument is not an array.')
        parsed = []
        for raw in raw_fields:
            name = raw.get("field") if isinstance(raw, dict) else None
            if not isinstance(name, str):
                raise ValueError("Struct schema's field name not specified properly")
            field_schema = parse_json_schema(raw)
            assert field_schema is not None
            parsed.append(Field(name, field_schema))
        fields = tuple(parsed)
    optional = node.get("optional", False)
    if not isinstance(optional, bool):
        raise ValueError("Schema 'optional' must be a boolean")
    name = node.get("name")
    version = node.get("version")
    doc = node.get("doc")
    params = node.get("parameters", {}) or {}
    if not isinstance(params, dict):
        raise ValueError("Schema parameters must be a JSON object")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ValueError("Schema version must be an integer")
    schema = ConnectSchema(
        type=schema_type,
        optional=optional,
        name=name if isinstance(name, str) else None,
        version=version,
        doc=doc if isinstance(doc, str) else None,
        parameters={str(k): str(v) for k, v in params.items()},
        fields=fields,
        key_schema=key_schema,
        value_schema=value_schema,
    )
    if node.get("default") is not None:
        default = _json_to_connect(schema, node["default"], replace_null_with_default=False)
        schema = dataclasses.replace(schema, default=default)
    return schema


def _expect(ok: bool, schema: ConnectSchema, node: Any) -> None:
    if not ok:
        label = schema.name or schema.type.name
        raise ValueError(f"Invalid JSON {_type_name(node)} for Connect {label} schema: {node!r}")


def _json_to_connect(
    schema: ConnectSchema | None, node: Any, replace_null_with_default: bool
) -> Any:
    """JsonConverter.convertToConnect."""
    if schema is None:
        return _schemaless(node)
    if node is None:
        if replace_null_with_default and schema.default is not None:
            return schema.default
        if schema.optional:
            return None
        raise ValueError(f"Invalid null value for required {schema.type.name} field")
    name = schema.name
    if name == DECIMAL:
        scale = decimal_scale(schema)
        if isinstance(node, str):
            try:
                raw = base64.b64decode(node, validate=True)
            except ValueError as e:
                raise ValueError(f"Invalid base64 for Decimal: {node!r}") from e
            return bytes_to_decimal(raw, scale)
        _expect(isinstance(node, int | Decimal) and not isinstance(node, bool), schema, node)
        return Decimal(decimal_unscaled(schema, Decimal(node))).scaleb(-scale)
    if name in (DATE, TIME, TIMESTAMP):
        _expect(isinstance(node, int) and not isinstance(node, bool), schema, node)
        if name == DATE:
            return EPOCH_DAY + timedelta(days=node)
        if name == TIME:
            if not 0 <= node < _MS_PER_DAY:
                raise ValueError(f"Time value {node} is outside 0..86399999 milliseconds")
            return (datetime.min + timedelta(milliseconds=node)).time()
        return EPOCH + timedelta(milliseconds=node)
    return _typed(schema, node, replace_null_with_default)


def _typed(schema: ConnectSchema, node: Any, replace: bool) -> Any:
    t = schema.type
    if t in _INT_RANGES:
        _expect(isinstance(node, int) and not isinstance(node, bool), schema, node)
        low, high = _INT_RANGES[t]
        if not low <= node <= high:
            raise ValueError(f"Value {node} out of range for {t.name}")
        return node
    if t in (Type.FLOAT32, Type.FLOAT64):
        _expect(isinstance(node, int | Decimal) and not isinstance(node, bool), schema, node)
        return float(node)
    if t is Type.BOOLEAN:
        _expect(isinstance(node, bool), schema, node)
        return node
    if t is Type.STRING:
        _expect(isinstance(node, str), schema, node)
        return node
    if t is Type.BYTES:
        _expect(isinstance(node, str), schema, node)
        try:
            return base64.b64decode(node, validate=True)
        except ValueError as e:
            raise ValueError(f"Invalid base64 for BYTES: {node!r}") from e
    if t is Type.ARRAY:
        _expect(isinstance(node, list), schema, node)
        return [_json_to_connect(schema.value_schema, item, replace) for item in node]
    if t is Type.MAP:
        key_schema, value_schema = schema.key_schema, schema.value_schema
        if key_schema is not None and key_schema.type is Type.STRING:
            _expect(isinstance(node, dict), schema, node)
            return {k: _json_to_connect(value_schema, v, replace) for k, v in node.items()}
        _expect(isinstance(node, list), schema, node)
        result: dict[Any, Any] = {}
        for entry in node:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ValueError(f"Found invalid map entry instead of array tuple: {entry!r}")
            key = _json_to_connect(key_schema, entry[0], replace)
            result[key] = _json_to_connect(value_schema, entry[1], replace)
        return result
    # STRUCT
    if not isinstance(node, dict):
        raise ValueError(f"Structs should be encoded as JSON objects, but found {_type_name(node)}")
    return {f.name: _json_to_connect(f.schema, node.get(f.name), replace) for f in schema.fields}


def _compile_json_to_connect(schema: ConnectSchema, replace: bool) -> Callable[[Any], Any]:
    """:func:`_json_to_connect` specialised once for ``schema``: the same results and errors
    without re-dispatching on the schema for every value (the sink's hot path)."""
    t = schema.type
    if schema.name in (DECIMAL, DATE, TIME, TIMESTAMP) or t in (Type.BYTES, Type.MAP):
        return lambda node: _json_to_connect(schema, node, replace)
    convert: Callable[[Any], Any]
    if t in _INT_RANGES:
        low, high = _INT_RANGES[t]

        def convert(node: Any) -> Any:
            _expect(isinstance(node, int) and not isinstance(node, bool), schema, node)
            if not low <= node <= high:
                raise ValueError(f"Value {node} out of range for {t.name}")
            return node

    elif t in (Type.FLOAT32, Type.FLOAT64):

        def convert(node: Any) -> Any:
            _expect(isinstance(node, int | Decimal) and not isinstance(node, bool), schema, node)
            return float(node)

    elif t is Type.BOOLEAN or t is Type.STRING:
        expected = bool if t is Type.BOOLEAN else str

        def convert(node: Any) -> Any:
            _expect(isinstance(node, expected), schema, node)
            return node

    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        item = _compile_json_to_connect(schema.value_schema, replace)

        def convert(node: Any) -> Any:
            _expect(isinstance(node, list), schema, node)
            return [item(v) for v in node]

    else:
        fields = [(f.name, _compile_json_to_connect(f.schema, replace)) for f in schema.fields]

        def convert(node: Any) -> Any:
            if not isinstance(node, dict):
                raise ValueError(
                    f"Structs should be encoded as JSON objects, but found {_type_name(node)}"
                )
            get = node.get
            return {name: conv(get(name)) for name, conv in fields}

    if replace and schema.default is not None:
        default = schema.default
        return lambda node: default if node is None else convert(node)
    if schema.optional:
        return lambda node: None if node is None else convert(node)
    required = f"Invalid null value for required {t.name} field"

    def checked(node: Any) -> Any:
        if node is None:
            raise ValueError(required)
        return convert(node)

    return checked


def _compile_payload(schema: ConnectSchema, replace: bool) -> Callable[[Any], Any]:
    """The payload converter of ``schema``: generated straight-line code for the common case
    (:mod:`s3connect.codegen`), the reference :func:`_compile_json_to_connect` for the rest."""
    fast = json_to_connect_fast(schema, replace, _compile_json_to_connect)
    return fast if fast is not None else _compile_json_to_connect(schema, replace)


def _schemaless(node: Any) -> Any:
    if isinstance(node, Decimal):
        return float(node)
    if isinstance(node, list):
        return [_schemaless(item) for item in node]
    if isinstance(node, dict):
        return {k: _schemaless(v) for k, v in node.items()}
    return node


# ---------------------------------------------------------------------------------------------
# Connect -> JSON (tree of JSON-able values, then Jackson-compatible text)


class _Float32(float):
    """A float that Jackson writes as Java's ``Float.toString``."""


def _connect_to_json(
    schema: ConnectSchema | None, value: Any, decimal_format: str, replace: bool
) -> Any:
    """JsonConverter.convertToJson."""
    if value is None:
        if schema is None:
            return None
        if replace and schema.default is not None:
            return _connect_to_json(schema, schema.default, decimal_format, replace)
        if schema.optional:
            return None
        raise ValueError(
            "Conversion error: null value for field that is required and has no default"
        )
    if schema is None:
        return _jackson_tree(value, None)
    name = schema.name
    if name == DECIMAL:
        if decimal_format == "NUMERIC":
            return Decimal(decimal_unscaled(schema, value)).scaleb(-decimal_scale(schema))
        raw = decimal_to_bytes(decimal_unscaled(schema, value))
        return base64.b64encode(raw).decode("ascii")
    if name == DATE:
        return date_to_days(value)
    if name == TIME:
        return time_to_millis(value)
    if name == TIMESTAMP:
        return timestamp_to_millis(value)
    t = schema.type
    if t in _INT_RANGES:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"Invalid type for {t.name}: {type(value).__name__}")
        return value
    if t is Type.FLOAT32:
        return _Float32(value)
    if t is Type.FLOAT64:
        return float(value)
    if t is Type.BOOLEAN or t is Type.STRING:
        return value
    if t is Type.BYTES:
        return base64.b64encode(bytes(value)).decode("ascii")
    if t is Type.ARRAY:
        return [_connect_to_json(schema.value_schema, v, decimal_format, replace) for v in value]
    if t is Type.MAP:
        key_schema = schema.key_schema
        if key_schema is not None and key_schema.type is Type.STRING:
            return {
                k: _connect_to_json(schema.value_schema, v, decimal_format, replace)
                for k, v in value.items()
            }
        return [
            [
                _connect_to_json(key_schema, k, decimal_format, replace),
                _connect_to_json(schema.value_schema, v, decimal_format, replace),
            ]
            for k, v in value.items()
        ]
    if not isinstance(value, Mapping):
        raise ValueError(f"Struct value must be a dict, got {type(value).__name__}")
    return {
        f.name: _connect_to_json(f.schema, value.get(f.name), decimal_format, replace)
        for f in schema.fields
    }


def _jackson_tree(value: Any, schema: ConnectSchema | None) -> Any:
    """What Jackson's ``ObjectMapper.writeObject`` writes for a plain Java value.

    ``schema`` (optional) only tells float32 numbers apart from doubles.
    """
    if value is None or isinstance(value, bool | int | str | Decimal):
        return value
    if isinstance(value, float):
        is_f32 = schema is not None and schema.type is Type.FLOAT32
        return _Float32(value) if is_f32 else value
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, datetime):  # java.util.Date -> epoch millis
        return timestamp_to_millis(value)
    if isinstance(value, date):
        return date_to_days(value) * _MS_PER_DAY
    if isinstance(value, time):
        return time_to_millis(value)
    item_schema = schema.value_schema if schema is not None else None
    if isinstance(value, list | tuple):
        return [_jackson_tree(v, item_schema) for v in value]
    if isinstance(value, Mapping):
        if schema is not None and schema.type is Type.STRUCT:
            return {f.name: _jackson_tree(value.get(f.name), f.schema) for f in schema.fields}
        return {_jackson_key(k): _jackson_tree(v, item_schema) for k, v in value.items()}
    raise ValueError(f"Cannot convert {type(value).__name__} to JSON")


def _jackson_key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return key if isinstance(key, str) else str(key)


_ESCAPES = {i: f"\\u{i:04X}" for i in range(32)}
_ESCAPES.update({8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\"})


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


def _dump(node: Any, out: list[str]) -> None:
    if node is None:
        out.append("null")
    elif node is True:
        out.append("true")
    elif node is False:
        out.append("false")
    elif isinstance(node, str):
        out.append('"' + node.translate(_ESCAPES) + '"')
    elif isinstance(node, float):
        if math.isnan(node):
            out.append('"NaN"')
        elif math.isinf(node):
            out.append('"Infinity"' if node > 0 else '"-Infinity"')
        else:
            out.append(_java_float(node, isinstance(node, _Float32)))
    elif isinstance(node, int | Decimal):
        out.append(str(node))
    elif isinstance(node, list):
        out.append("[")
        for i, item in enumerate(node):
            if i:
                out.append(",")
            _dump(item, out)
        out.append("]")
    else:
        out.append("{")
        for i, (key, item) in enumerate(node.items()):
            if i:
                out.append(",")
            out.append('"' + key.translate(_ESCAPES) + '":')
            _dump(item, out)
        out.append("}")


def dumps_json(value: Any, schema: ConnectSchema | None = None) -> str:
    """Serialize a Connect value as Jackson's ObjectMapper writes it (compact, Java number text).

    Used by the JSON format for values that are not structs (Confluent hands those straight to
    Jackson rather than to the JsonConverter).
    """
    out: list[str] = []
    _dump(_jackson_tree(value, schema), out)
    return "".join(out)


def schema_to_json(schema: ConnectSchema | None) -> Any:
    """A Connect schema as the JSON envelope's ``schema`` object (JsonConverter.asJsonSchema)."""
    if schema is None:
        return None
    node: dict[str, Any] = {"type": schema.type.value}
    if schema.type is Type.ARRAY:
        node["items"] = schema_to_json(schema.value_schema)
    elif schema.type is Type.MAP:
        node["keys"] = schema_to_json(schema.key_schema)
        node["values"] = schema_to_json(schema.value_schema)
    elif schema.type is Type.STRUCT:
        node["fields"] = [{**schema_to_json(f.schema), "field": f.name} for f in schema.fields]
    node["optional"] = schema.optional
    if schema.name is not None:
        node["name"] = schema.name
    if schema.version is not None:
        node["version"] = schema.version
    if schema.doc is not None:
        node["doc"] = schema.doc
    if schema.parameters:
        node["parameters"] = dict(schema.parameters)
    if schema.default is not None:
        node["default"] = _connect_to_json(schema, schema.default, "BASE64", True)
    return node


# ---------------------------------------------------------------------------------------------
# Converters


class JsonConverter:
    """Kafka's JsonConverter.

    Args:
        schemas_enable: expect (and write) the ``{"schema": ..., "payload": ...}`` envelope.
        is_key: converts record keys (kept for parity with Kafka's ``configure``).
        decimal_format: ``"BASE64"`` (default) or ``"NUMERIC"``, for writing decimals.
        replace_null_with_default: a null for a field with a default yields the default.
    """

    def __init__(
        self,
        *,
        schemas_enable: bool = True,
        is_key: bool = False,
        decimal_format: str = "BASE64",
        replace_null_with_default: bool = True,
    ) -> None:
        fmt = decimal_format.upper()
        if fmt not in ("BASE64", "NUMERIC"):
            raise ValueError(f"decimal.format must be BASE64 or NUMERIC, got {decimal_format!r}")
        self.schemas_enable = schemas_enable
        self.is_key = is_key
        self.decimal_format = fmt
        self.replace_null_with_default = replace_null_with_default
        self._cache: dict[str, tuple[ConnectSchema | None, Callable[[Any], Any]]] = {}
        self._cache_size = 1000
        # Envelopes seen, by their raw bytes up to the payload: b'{"schema":<schema>,"payload":'
        # -> (schema, payload converter). A record starting with such bytes needs only its
        # payload parsed; the schema is neither reparsed nor looked up by repr.
        self._prefixes: dict[bytes, tuple[ConnectSchema | None, Callable[[Any], Any]]] = {}
        self._last_prefix = b""
        self._last_hit: tuple[ConnectSchema | None, Callable[[Any], Any]] | None = None

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode JSON bytes; null bytes (a tombstone) give ``(None, None)``."""
        if data is None:
            return None, None
        if self.schemas_enable and data.__class__ is bytes:
            hit = self._known_envelope(data)
            if hit is not None:
                return hit
        node = _loads(data)
        if not self.schemas_enable:
            return _schemaless(node), None
        if not isinstance(node, dict) or len(node) != 2 or not {"schema", "payload"} <= node.keys():
            raise ValueError(_ENVELOPE_ERROR)
        cached = self._schema(node["schema"])
        if data.__class__ is bytes:
            self._learn_prefix(data, cached)
        schema, convert = cached
        return convert(node["payload"]), schema

    def _known_envelope(self, data: bytes) -> tuple[Any, ConnectSchema | None] | None:
        """The converted record when ``data`` is ``{"schema":S,"payload":P}`` with the bytes of
        an S seen before and a P that parses; else None (the full path then decides, errors
        included). Same result as the full path: the envelope is exactly those two keys."""
        prefix, cached = self._last_prefix, self._last_hit
        if cached is None or not data.startswith(prefix):
            if not data.startswith(_ENVELOPE_START):
                return None
            for prefix, cached in self._prefixes.items():  # noqa: B007
                if data.startswith(prefix):
                    break
            else:
                return None
            self._last_prefix, self._last_hit = prefix, cached
        if data.endswith(b"}"):
            body = data[len(prefix) : -1]
        else:
            body = data[len(prefix) :].rstrip(_JSON_WS)
            if not body.endswith(b"}"):
                return None
            body = body[:-1]
        try:
            # The prefix ends on an ASCII byte and data starts with '{"': json.loads would
            # decode all of it as UTF-8, so the body decodes alone the same way.
            text = body.decode("utf-8", "surrogatepass")
            # The decoder's scanner on the bare value: what decode() does for text without
            # surrounding whitespace; anything else goes to the full path.
            payload, end = _SCAN(text, 0)
        except (ValueError, StopIteration):
            return None
        if end != len(text):
            return None
        schema, convert = cached
        return convert(payload), schema

    def _learn_prefix(
        self, data: bytes, cached: tuple[ConnectSchema | None, Callable[[Any], Any]]
    ) -> None:
        if not data.startswith(_ENVELOPE_START):
            return
        try:
            text = data.decode("utf-8", "surrogatepass")
            _, end = _DECODER.raw_decode(text, len(_ENVELOPE_START))
        except ValueError:
            return
        if not text.startswith(_PAYLOAD_KEY, end):
            return
        size = len(text[:end].encode("utf-8", "surrogatepass")) + len(_PAYLOAD_KEY)
        prefix = data[:size]
        if len(self._prefixes) >= 16:
            self._prefixes.pop(next(iter(self._prefixes)))
        self._prefixes[prefix] = cached
        self._last_prefix, self._last_hit = prefix, cached

    def _schema(self, node: Any) -> tuple[ConnectSchema | None, Callable[[Any], Any]]:
        """Parse an envelope schema through a bounded cache (as Kafka's ``schemas.cache.size``),
        so records sharing a schema share one parsed (identical) schema object and one
        compiled payload converter."""
        key = repr(node)
        cached = self._cache.get(key)
        if cached is None:
            schema = parse_json_schema(node)
            replace = self.replace_null_with_default
            convert = _schemaless if schema is None else _compile_payload(schema, replace)
            if len(self._cache) >= self._cache_size:
                self._cache.pop(next(iter(self._cache)))
            cached = self._cache[key] = (schema, convert)
        return cached

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """Encode a Connect value as JSON bytes (``None`` for a schemaless null, as Kafka)."""
        if schema is None and value is None:
            return None
        payload = _connect_to_json(
            schema, value, self.decimal_format, self.replace_null_with_default
        )
        tree = {"schema": schema_to_json(schema), "payload": payload}
        out: list[str] = []
        _dump(tree if self.schemas_enable else payload, out)
        return "".join(out).encode("utf-8")


class StringConverter:
    """Kafka's StringConverter: bytes decoded as text, schema optional STRING."""

    SCHEMA = ConnectSchema(Type.STRING, optional=True)

    def __init__(self, *, encoding: str = "utf-8", is_key: bool = False) -> None:
        self.encoding = encoding
        self.is_key = is_key

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode ``data``; malformed bytes become U+FFFD, as Java's ``new String`` does."""
        value = None if data is None else bytes(data).decode(self.encoding, errors="replace")
        return value, self.SCHEMA


class ByteArrayConverter:
    """Kafka's ByteArrayConverter: bytes passed through, schema optional BYTES."""

    SCHEMA = ConnectSchema(Type.BYTES, optional=True)

    def __init__(self, *, is_key: bool = False) -> None:
        self.is_key = is_key

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Return ``data`` unchanged."""
        return (None if data is None else bytes(data)), self.SCHEMA


ConverterFactory = Callable[..., Converter]

_REGISTRY: dict[str, ConverterFactory] = {}
_ALIASES = {
    "org.apache.kafka.connect.json.JsonConverter": "json",
    "org.apache.kafka.connect.storage.StringConverter": "string",
    "org.apache.kafka.connect.converters.ByteArrayConverter": "bytearray",
}


def register_converter(name: str, factory: ConverterFactory) -> None:
    """Register a converter factory under a short name (e.g. Schema Registry converters).

    The factory is called with keyword arguments ``schemas_enable`` and ``is_key``.
    """
    _REGISTRY[name.lower()] = factory


def converter_names() -> list[str]:
    """The registered short names, sorted."""
    return sorted(_REGISTRY)


def make_converter(name: str, *, schemas_enable: bool = True, is_key: bool = False) -> Converter:
    """Build a converter by short name (``json``, ``string``, ``bytearray``) or Kafka class name.

    Raises:
        ValueError: the name is unknown (the message lists the known names).
    """
    key = _ALIASES.get(name.strip(), name.strip()).lower()
    factory = _REGISTRY.get(key)
    if factory is None:
        raise ValueError(f"Unknown converter {name!r}; known: {', '.join(converter_names())}")
    return factory(schemas_enable=schemas_enable, is_key=is_key)


register_converter(
    "json",
    lambda *, schemas_enable, is_key: JsonConverter(schemas_enable=schemas_enable, is_key=is_key),
)
register_converter("string", lambda *, schemas_enable, is_key: StringConverter(is_key=is_key))
register_converter("bytearray", lambda *, schemas_enable, is_key: ByteArrayConverter(is_key=is_key))
