"""Kafka's ``org.apache.kafka.connect.json.JsonConverter``: JSON bytes (with or without the
``{"schema", "payload"}`` envelope) to a Connect value and schema, and back.

Logical types are represented as Python values: ``Timestamp`` -> timezone-aware
:class:`datetime.datetime` (UTC), ``Date`` -> :class:`datetime.date`, ``Time`` ->
:class:`datetime.time`, ``Decimal`` -> :class:`decimal.Decimal` (at the schema's scale).

Converters raise :class:`ValueError` naming the cause; callers wrap it in
:class:`~s3connect.errors.ConversionError` with topic, partition and offset.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import orjson

from s3connect.connect.json_data import (
    LOGICAL_TO_CONNECT,
    PRIMITIVE_TO_CONNECT,
    NotProvable,
    check_struct_value,
    connect_to_json,
    expect_object,
    json_items,
    json_to_connect,
    null_to_connect,
    parse_json_schema,
    schema_to_json,
    schemaless_from_parsed,
    schemaless_to_connect,
)
from s3connect.connect.schema import DECIMAL, ConnectSchema, Type
from s3connect.convert.codegen import UNDECIDED, floats_to_connect_fast, json_to_connect_fast
from s3connect.util.jackson import dump

__all__ = [
    "JsonConverter",
]

_ENVELOPE_ERROR = (
    'JsonConverter with schemas.enable requires "schema" and "payload" fields and may not contain '
    "additional fields. If you are trying to deserialize plain JSON data, set schemas.enable=false "
    "in your converter configuration."
)


# ---------------------------------------------------------------------------------------------
# Logical-type helpers (Connect <-> wire representation)


# ---------------------------------------------------------------------------------------------
# JSON -> Connect


def _no_constants(name: str) -> Any:
    raise ValueError(f"Non-standard token '{name}': not a JSON number")


# One shared decoder (json.loads would build one per call); NaN and Infinity are not JSON.
_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constants)
_SCAN = _DECODER.scan_once  # type: ignore[attr-defined]
_JSON_WS = b" \t\n\r"
_ENVELOPE_START = b'{"schema":'
_PAYLOAD_KEY = ',"payload":'


def _lenient_decoder() -> json.JSONDecoder:
    """A decoder that also reads numbers with leading zeros (``007`` is 7), as Kafka's
    JsonDeserializer (``ALLOW_LEADING_ZEROS_FOR_NUMBERS``): Python's pure scanner built with a
    wider number pattern. Slower; only for what the C scanner refuses."""
    decoder = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constants)
    strict_numbers = json.scanner.NUMBER_RE
    setattr(json.scanner, "NUMBER_RE", re.compile(r"(-?\d+)(\.\d+)?([eE][-+]?\d+)?", re.DOTALL))  # noqa: B010
    try:
        decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    finally:
        setattr(json.scanner, "NUMBER_RE", strict_numbers)  # noqa: B010
    return decoder


_LENIENT = _lenient_decoder()
_WS = re.compile(r"[ \t\n\r]*")


def _root_ends_well(text: str, node: Any, end: int) -> bool:
    """Jackson reads the first value and ignores what follows, but a number must be followed by
    whitespace and ``true``/``false``/``null`` by no identifier character."""
    if end == len(text):
        return True
    if node.__class__ in (int, Decimal):
        return text[end] in " \t\n\r"
    if node is None or node is True or node is False:
        return not (text[end].isalnum() or text[end] in "_$")
    return True


def _first_value(text: str) -> Any:
    """The first JSON value of ``text`` as ``ObjectMapper.readTree`` reads it."""
    start = _WS.match(text).end()  # type: ignore[union-attr]
    try:
        node, end = _DECODER.raw_decode(text, start)
        if _root_ends_well(text, node, end):
            return node
    except ValueError:
        pass
    node, end = _LENIENT.raw_decode(text, start)
    if not _root_ends_well(text, node, end):
        raise ValueError(f"Unexpected character {text[end]!r} after a root-level value")
    return node


def _loads(data: bytes) -> Any:
    """JSON bytes as Kafka's JsonDeserializer reads them (UTF-8/16/32, a BOM allowed, leading
    zeros allowed, content after the first value ignored, blank = null)."""
    try:
        data = bytes(data)
        if not data.strip(_JSON_WS):
            return None
        return _first_value(data.decode(json.detect_encoding(data), "surrogatepass"))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise ValueError(
            f"Converting byte[] to Kafka Connect data failed due to serialization error: {e}"
        ) from e


def _schemaless(data: bytes) -> Any:
    """The Connect value of schemaless JSON bytes: orjson's parse when it is provably what
    Kafka reads (strict JSON, no run of 19 digits, so every integer fits in 64 bits), else the
    exact :func:`_loads`."""
    if data.__class__ is bytes and _LONG_DIGITS not in data.translate(_ZEROS):
        try:
            return schemaless_from_parsed(orjson.loads(data))
        except (orjson.JSONDecodeError, NotProvable):  # leniencies, odd encodings, -0.0
            pass
    return schemaless_to_connect(_loads(data))


_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 19  # 2**63 has 19 digits; orjson reads 2**64 and beyond as floats


def _compile_json_to_connect(schema: ConnectSchema, replace: bool) -> Callable[[Any], Any]:
    """:func:`json_to_connect` specialised once for ``schema``: the same results and errors
    without re-dispatching on the schema for every value (the sink's hot path)."""
    t = schema.type
    convert: Callable[[Any], Any]
    if schema.name in LOGICAL_TO_CONNECT or t is Type.MAP:
        return lambda node: json_to_connect(schema, node, replace)
    if t in PRIMITIVE_TO_CONNECT:
        convert = PRIMITIVE_TO_CONNECT[t]
    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        item = _compile_json_to_connect(schema.value_schema, replace)

        def convert(node: Any) -> Any:
            return [item(v) for v in (node if node.__class__ is list else json_items(node))]

    else:
        convert = _compile_struct(schema, replace)
    if replace and schema.default is not None:
        default = schema.default
        return lambda node: default if node is None else convert(node)
    if schema.optional:
        return lambda node: None if node is None else convert(node)

    def checked(node: Any) -> Any:
        return null_to_connect(schema, replace) if node is None else convert(node)

    return checked


def _compile_struct(schema: ConnectSchema, replace: bool) -> Callable[[Any], Any]:
    """A struct's converter; the fields whose value may hold a null a required schema refuses
    (a string or bytes schema's reading of another JSON type) are checked as ``Struct.put``."""
    fields = [(f.name, _compile_json_to_connect(f.schema, replace)) for f in schema.fields]
    checked = [f for f in schema.fields if _may_read_null(f.schema)]

    def convert(node: Any) -> Any:
        expect_object(node, "Structs should be encoded as JSON objects")
        get = node.get
        struct = {name: conv(get(name)) for name, conv in fields}
        for f in checked:
            check_struct_value(f, struct[f.name])
        return struct

    return convert


def _may_read_null(schema: ConnectSchema | None) -> bool:
    """Whether a required (part of the) schema may read a null from a JSON node of another
    type: a string or bytes (not a Decimal), in an array or map."""
    if schema is None:
        return False
    if schema.type in (Type.STRING, Type.BYTES) and schema.name != DECIMAL:
        return not schema.optional
    if schema.type is Type.ARRAY:
        return _may_read_null(schema.value_schema)
    if schema.type is Type.MAP:
        return _may_read_null(schema.key_schema) or _may_read_null(schema.value_schema)
    return False


@dataclass(frozen=True, slots=True)
class _Payload:
    """An envelope schema's parsed schema and its payload converters: the exact one (for what
    Python's parser with Decimals reads) and, when one was generated, the fast one for orjson's
    parse (:func:`~s3connect.convert.codegen.floats_to_connect_fast`)."""

    schema: ConnectSchema | None
    convert: Callable[[Any], Any]
    fast: Callable[[Any], Any] | None = None


def _compile_payload(schema: ConnectSchema, replace: bool) -> Callable[[Any], Any]:
    """The payload converter of ``schema``: generated straight-line code for the common case
    (:mod:`s3connect.convert.codegen`), else the reference :func:`_compile_json_to_connect`."""
    fast = json_to_connect_fast(schema, replace, _compile_json_to_connect)
    return fast if fast is not None else _compile_json_to_connect(schema, replace)


# ---------------------------------------------------------------------------------------------
# Connect -> JSON (tree of JSON-able values, then Jackson-compatible text)


# ---------------------------------------------------------------------------------------------
# Converters


class JsonConverter:
    """Kafka's JsonConverter.

    Args:
        schemas_enable: expect (and write) the ``{"schema": ..., "payload": ...}`` envelope.
        is_key: converts record keys (kept for parity with Kafka's ``configure``).
        decimal_format: ``"BASE64"`` (default) or ``"NUMERIC"`` (any case), for writing
            decimals; both are read.
        replace_null_with_default: a null for a schema with a default is its default (reading
            and writing).
        schemas_cache_size: how many envelope schemas are kept parsed (``schemas.cache.size``).
    """

    def __init__(
        self,
        *,
        schemas_enable: bool = True,
        is_key: bool = False,
        decimal_format: str = "BASE64",
        replace_null_with_default: bool = True,
        schemas_cache_size: int = 1000,
    ) -> None:
        fmt = decimal_format.upper()
        if fmt not in ("BASE64", "NUMERIC"):
            raise ValueError(
                f"Invalid value {decimal_format} for configuration decimal.format: String must "
                "be one of (case insensitive): BASE64, NUMERIC"
            )
        self.schemas_enable = schemas_enable
        self.is_key = is_key
        self.decimal_format = fmt
        self.replace_null_with_default = replace_null_with_default
        self._cache: dict[str, _Payload] = {}
        self._cache_size = schemas_cache_size
        # Envelopes seen, by their raw bytes up to the payload: b'{"schema":<schema>,"payload":'
        # -> (schema, payload converter). A record starting with such bytes needs only its
        # payload parsed; the schema is neither reparsed nor looked up by repr.
        self._prefixes: dict[bytes, _Payload] = {}
        self._last_prefix = b""
        self._last_hit: _Payload | None = None

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode JSON bytes; null bytes (a tombstone) give ``(None, None)``."""
        if data is None:
            return None, None
        if self.schemas_enable and data.__class__ is bytes:
            hit = self._known_envelope(data)
            if hit is not None:
                return hit
        if not self.schemas_enable:
            return _schemaless(data), None
        node = _loads(data)
        if not isinstance(node, dict) or len(node) != 2 or not {"schema", "payload"} <= node.keys():
            raise ValueError(_ENVELOPE_ERROR)
        cached = self._schema(node["schema"])
        if data.__class__ is bytes:
            self._learn_prefix(data, cached)
        return cached.convert(node["payload"]), cached.schema

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
        if cached.fast is not None and _LONG_DIGITS not in body.translate(_ZEROS):
            try:  # orjson's parse, every integer in 64 bits: the floats decide or hand back
                value = cached.fast(orjson.loads(body))
            except orjson.JSONDecodeError:  # leniencies, surrogates, infinities: exact path
                value = UNDECIDED
            if value is not UNDECIDED:
                return value, cached.schema
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
        return cached.convert(payload), cached.schema

    def _learn_prefix(self, data: bytes, cached: _Payload) -> None:
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

    def _schema(self, node: Any) -> _Payload:
        """Parse an envelope schema through a bounded cache (as Kafka's ``schemas.cache.size``),
        so records sharing a schema share one parsed (identical) schema object and one
        compiled payload converter."""
        key = repr(node)
        cached = self._cache.pop(key, None)  # back in last: least recently used first out
        if cached is None:
            schema = parse_json_schema(node)
            replace = self.replace_null_with_default
            if schema is None:
                cached = _Payload(None, schemaless_to_connect)
            else:
                fast = floats_to_connect_fast(schema, replace)
                cached = _Payload(schema, _compile_payload(schema, replace), fast)
            if self._cache and len(self._cache) >= self._cache_size:
                self._cache.pop(next(iter(self._cache)))
        if self._cache_size > 0:
            self._cache[key] = cached
        return cached

    @property
    def schema_cache_size(self) -> int:
        """How many envelope schemas are cached (``sizeOfToConnectSchemaCache``)."""
        return len(self._cache)

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """Encode a Connect value as JSON bytes (``None`` for a schemaless null, as Kafka)."""
        if schema is None and value is None:
            return None
        payload = connect_to_json(
            schema, value, self.decimal_format, self.replace_null_with_default
        )
        tree = {"schema": schema_to_json(schema, self.decimal_format), "payload": payload}
        out: list[str] = []
        dump(tree if self.schemas_enable else payload, out)
        return "".join(out).encode("utf-8")
