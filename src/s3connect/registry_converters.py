"""Confluent's Schema Registry converters: AvroConverter, JsonSchemaConverter, ProtobufConverter.

Each reads the wire format (:mod:`s3connect.registry`), fetches the writer schema by id, and
turns schema and value into Connect's as Confluent's ``AvroData.toConnectSchema`` /
``toConnectData``, ``JsonSchemaData`` and ``ProtobufData`` do with their default settings
(``connect.meta.data=true``, no enhanced schema support, no generalized sum types, Protobuf
fields optional and ``wrapper.for.raw.primitives=true``). The Connect schema's version is the
registry's version of the schema under the record's subject (``<topic>-value``/``<topic>-key``),
as the Confluent converters set it.

Per (topic, schema id) everything is prepared once: the parsed schema, the Connect schema (one
object, so equal records share it) and a decoder. A record then costs one dict lookup and its
decode: fastavro's ``schemaless_reader`` for Avro, ``json`` for JSON Schema, a dynamic
``google.protobuf`` message for Protobuf.

Known differences (documented in the README): an Avro union holding both ``int`` and ``long``
(or ``float`` and ``double``) picks ``int`` for values in int range (``double`` for floats), as
Python decodes both alike; recursive schemas are rejected (Connect's cyclic schemas have no
equivalent here); JSON Schema ``$ref`` resolves within the document and to referenced schemas
by name only.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import io
import json
import math
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from s3connect.registry import (
    REGISTRY_CONVERTER_CLASSES,
    Registry,
    read_message_indexes,
    subject_name,
    wire_header,
)
from s3connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type

__all__ = [
    "AvroConverter",
    "JsonSchemaConverter",
    "ProtobufConverter",
    "avro_to_connect_schema",
    "json_schema_to_connect",
    "make_registry_converter",
    "protobuf_to_connect_schema",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_EPOCH_DAY = date(1970, 1, 1)
_MISSING: Any = object()
Decoder = Callable[[bytes], Any]


# =============================================================================================
# Converters


@dataclasses.dataclass(frozen=True, slots=True)
class _Prepared:
    """What a (topic, schema id) needs: the Connect schema and the payload decoder."""

    schema: ConnectSchema
    decode: Decoder


@dataclasses.dataclass(frozen=True, slots=True)
class _Broken:
    """A schema that cannot be used (e.g. unsupported): every record with it fails alike."""

    message: str


class _RegistryConverter:
    """Common part: wire header, per-(topic, id) cache, version lookup."""

    schema_type = ""

    def __init__(self, registry: Registry, *, is_key: bool = False) -> None:
        self.registry = registry
        self.is_key = is_key
        self._prepared: dict[tuple[str, int], _Prepared | _Broken] = {}

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode one framed record; null (a tombstone) gives ``(None, None)``.

        Raises:
            ValueError: not in the wire format, unknown schema id, undecodable payload.
            SchemaRegistryError: the registry cannot be used (after retries).
        """
        if data is None:
            return None, None
        schema_id = wire_header(data, topic)
        prepared = self._prepared.get((topic, schema_id))
        if prepared is None:
            prepared = self._prepare(topic, schema_id)
        if isinstance(prepared, _Broken):
            raise ValueError(prepared.message)
        try:
            return prepared.decode(data), prepared.schema
        except ValueError:
            raise
        except Exception as exc:  # decoders' own errors (EOF, protobuf DecodeError, ...)
            raise ValueError(
                f"Failed to deserialize data for topic {topic} with schema id {schema_id} "
                f"to {self.schema_type}: {type(exc).__name__}: {exc}"
            ) from exc

    def _prepare(self, topic: str, schema_id: int) -> _Prepared | _Broken:
        prepared: _Prepared | _Broken
        try:
            registered = self.registry.schema(schema_id, topic, fmt=self._fmt)
            subject = subject_name(topic, self.is_key)
            version = self.registry.version(subject, registered, schema_id, topic)
            prepared = self._build(registered, version, topic)
        except ValueError as exc:  # about the records (unknown id, unusable schema): cached
            prepared = _Broken(f"schema id {schema_id} ({self.schema_type}): {exc}")
        if len(self._prepared) >= 1000:
            self._prepared.pop(next(iter(self._prepared)))
        self._prepared[(topic, schema_id)] = prepared
        return prepared

    _fmt: str | None = None

    def _build(self, registered: Any, version: int, topic: str) -> _Prepared:
        raise NotImplementedError


def make_registry_converter(
    name: str, registry: Registry, *, is_key: bool = False
) -> _RegistryConverter:
    """The Schema Registry converter ``avro``, ``jsonschema`` or ``protobuf`` (short names or
    Confluent class names)."""
    short = next((k for k, v in REGISTRY_CONVERTER_CLASSES.items() if name in (k, v)), name.lower())
    factory: dict[str, type[_RegistryConverter]] = {
        "avro": AvroConverter,
        "jsonschema": JsonSchemaConverter,
        "protobuf": ProtobufConverter,
    }
    if short not in factory:
        raise ValueError(f"Unknown Schema Registry converter {name!r}")
    return factory[short](registry, is_key=is_key)


# =============================================================================================
# Avro: AvroData.toConnectSchema / toConnectData (connect.meta.data=true, no enhanced support)

_NS = "io.confluent.connect.avro"
AVRO_UNION = f"{_NS}.Union"
AVRO_ENUM = f"{_NS}.Enum"
RECORD_DOC = f"{_NS}.record.doc"
FIELD_DOC = f"{_NS}.field.doc."
FIELD_DEFAULT_FLAG = f"{_NS}.field.default"
ENUM_DOC = f"{_NS}.enum.doc."
ENUM_DEFAULT = f"{_NS}.enum.default."
_DEFAULT_FULL_NAME = f"{_NS}.ConnectDefault"
_AVRO_PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
_RESERVED = frozenset(
    {"doc", "fields", "items", "name", "namespace", "size", "symbols", "values", "type", "aliases"}
)
_NAMED = ("record", "enum", "fixed")


@dataclasses.dataclass(eq=False)
class _Avro:
    """A parsed Avro schema node (names resolved, props kept in order)."""

    kind: str
    props: dict[str, Any] = dataclasses.field(default_factory=dict)
    name: str | None = None
    doc: str | None = None
    fields: list[_AvroField] = dataclasses.field(default_factory=list)
    items: _Avro | None = None
    members: list[_Avro] = dataclasses.field(default_factory=list)
    symbols: list[str] = dataclasses.field(default_factory=list)
    enum_default: str | None = None
    size: int = 0

    @property
    def short_name(self) -> str:
        assert self.name is not None
        return self.name.rpartition(".")[2]

    @property
    def logical(self) -> str | None:
        value = self.props.get("logicalType")
        return value.lower() if isinstance(value, str) else None


@dataclasses.dataclass(eq=False)
class _AvroField:
    name: str
    type: _Avro
    doc: str | None
    default: Any  # _MISSING when the field has none


def _full(name: str, space: str | None) -> str:
    return name if "." in name or not space else f"{space}.{name}"


def _parse_avro(node: Any, space: str | None, named: dict[str, _Avro], busy: set[str]) -> _Avro:
    if isinstance(node, str):
        if node in _AVRO_PRIMITIVES:
            return _Avro(node)
        full = _full(node, space)
        if full in busy or node in busy:
            raise ValueError(f"recursive Avro schemas are not supported ({full} refers to itself)")
        found = named.get(full) or named.get(node)
        if found is None:
            raise ValueError(f"Avro schema refers to an unknown type {node!r}")
        return found
    if isinstance(node, list):
        return _Avro("union", members=[_parse_avro(m, space, named, busy) for m in node])
    if not isinstance(node, Mapping):
        raise ValueError(f"Avro schema node {node!r} is not valid")
    kind = node.get("type")
    if isinstance(kind, list | Mapping):
        return _parse_avro(kind, space, named, busy)
    if not isinstance(kind, str):
        raise ValueError(f"Avro schema {dict(node)!r} has no type")
    props = {k: v for k, v in node.items() if k not in _RESERVED}
    if kind in _AVRO_PRIMITIVES:
        return _Avro(kind, props)
    if kind == "array":
        return _Avro("array", props, items=_parse_avro(node.get("items"), space, named, busy))
    if kind == "map":
        return _Avro("map", props, items=_parse_avro(node.get("values"), space, named, busy))
    if kind not in (*_NAMED, "error"):
        return _parse_avro(kind, space, named, busy)  # a named type referenced as {"type": N}
    raw_name = node.get("name")
    if not isinstance(raw_name, str) or not raw_name:
        raise ValueError(f"Avro {kind} has no name")
    namespace = node.get("namespace")
    if "." in raw_name:
        full = raw_name
    elif isinstance(namespace, str):
        full = f"{namespace}.{raw_name}" if namespace else raw_name
    else:
        full = _full(raw_name, space)
    doc = node.get("doc") if isinstance(node.get("doc"), str) else None
    if kind == "enum":
        props.pop("default", None)
        out = _Avro("enum", props, name=full, doc=doc)
        out.symbols = [str(s) for s in node.get("symbols", [])]
        default = node.get("default")
        out.enum_default = default if isinstance(default, str) else None
    elif kind == "fixed":
        out = _Avro("fixed", props, name=full, doc=doc, size=int(node.get("size", 0)))
    else:
        out = _Avro("record", props, name=full, doc=doc)
        busy.add(full)
        inner = full.rpartition(".")[0] or None
        for f in node.get("fields", []):
            field_doc = f.get("doc") if isinstance(f.get("doc"), str) else None
            out.fields.append(
                _AvroField(
                    str(f["name"]),
                    _parse_avro(f.get("type"), inner, named, busy),
                    field_doc,
                    f.get("default", _MISSING),
                )
            )
        busy.discard(full)
    named[full] = out
    return out


def _union_field_name(member: _Avro) -> str:
    """AvroData.unionMemberFieldName (no enhanced schema support)."""
    if member.kind in ("record", "enum"):
        return member.short_name
    return member.kind


def _connect_name(schema: ConnectSchema, name: str | None) -> ConnectSchema:
    if name is None or name == _DEFAULT_FULL_NAME:
        return schema
    if schema.name is not None and schema.name != name:
        raise ValueError(
            f"Mismatched names: name already added to SchemaBuilder ({schema.name}) differs "
            f"from name in source schema ({name})"
        )
    return dataclasses.replace(schema, name=name)


def _avro_schema(
    a: _Avro, optional: bool, field_default: Any = _MISSING, version: int | None = None
) -> ConnectSchema:
    """AvroData.toConnectSchema(schema, forceOptional, fieldDefaultVal, docDefaultVal, version)."""
    kind, logical = a.kind, a.logical
    params: dict[str, str] = {}
    fields: tuple[Field, ...] = ()
    key = value = None
    name: str | None = None
    schema_version: int | None = None
    if kind == "boolean":
        t = Type.BOOLEAN
    elif kind in ("bytes", "fixed"):
        t = Type.BYTES
        if logical == "decimal":
            scale = a.props.get("scale")
            if not isinstance(scale, int) or isinstance(scale, bool):
                raise ValueError("scale must be specified and must be a number.")
            name, schema_version = DECIMAL, 1
            params["scale"] = str(scale)
            precision = a.props.get("precision")
            if precision is not None:
                if not isinstance(precision, int) or isinstance(precision, bool):
                    raise ValueError("precision property must be a JSON Integer.")
                if precision != 64:
                    params["connect.decimal.precision"] = str(precision)
    elif kind == "double":
        t = Type.FLOAT64
    elif kind == "float":
        t = Type.FLOAT32
    elif kind == "int":
        t = Type.INT32
        connect_type = a.props.get("connect.type")
        if logical is not None:
            if logical in ("date", "time-millis"):
                name, schema_version = (DATE if logical == "date" else TIME), 1
        elif connect_type is not None:
            if connect_type not in ("int8", "int16"):
                raise ValueError("Connect type annotation for Avro int field is null")
            t = Type(connect_type)
    elif kind == "long":
        t = Type.INT64
        if logical == "timestamp-millis":
            name, schema_version = TIMESTAMP, 1
    elif kind == "string":
        t = Type.STRING
    elif kind == "array":
        assert a.items is not None
        item = a.items
        if _is_map_entry(item):
            names = [f.name for f in item.fields]
            if len(names) != 2 or "key" not in names or "value" not in names:
                raise ValueError(
                    "Found map encoded as array of key-value pairs, but array elements do not "
                    "match the expected format."
                )
            k = next(f for f in item.fields if f.name == "key")
            v = next(f for f in item.fields if f.name == "value")
            t, key, value = Type.MAP, _avro_schema(k.type, False), _avro_schema(v.type, False)
        else:
            t, value = Type.ARRAY, _avro_schema(item, False)
    elif kind == "map":
        assert a.items is not None
        t, key, value = Type.MAP, ConnectSchema(Type.STRING), _avro_schema(a.items, False)
    elif kind == "record":
        t = Type.STRUCT
        if a.doc is not None:
            params[RECORD_DOC] = a.doc
        out = []
        for f in a.fields:
            if f.doc is not None:
                params[FIELD_DOC + f.name] = f.doc
            out.append(Field(f.name, _avro_schema(f.type, False, f.default)))
        fields = tuple(out)
    elif kind == "enum":
        t = Type.STRING
        if a.doc is not None:
            params[ENUM_DOC + a.short_name] = a.doc
        if a.enum_default is not None:
            params[ENUM_DEFAULT + a.short_name] = a.enum_default
        params[AVRO_ENUM] = a.name or ""
        for symbol in a.symbols:
            params[f"{AVRO_ENUM}.{symbol}"] = symbol
    elif kind == "union":
        members = a.members
        if len(members) == 2 and any(m.kind == "null" for m in members):
            other = next(m for m in members if m.kind != "null")
            if other.kind != "null":
                return _avro_schema(other, True)
        t, name = Type.STRUCT, AVRO_UNION
        seen: set[str] = set()
        out = []
        for m in members:
            if m.kind == "null":
                optional = True
                continue
            field_name = _union_field_name(m)
            if field_name in seen:
                raise ValueError("Multiple union schemas map to the Connect union field name")
            seen.add(field_name)
            out.append(Field(field_name, _avro_schema(m, True)))
        fields = tuple(out)
    elif kind == "null":
        raise ValueError("Standalone null schemas are not supported by this converter")
    else:
        raise ValueError(f"Couldn't translate unsupported schema type {kind}.")

    schema = ConnectSchema(
        t, name=name, version=schema_version, fields=fields, key_schema=key, value_schema=value
    )
    props = a.props
    doc = props.get("connect.doc")
    if isinstance(doc, str):
        schema = dataclasses.replace(schema, doc=doc)
    connect_version = props.get("connect.version")
    if connect_version is not None and (
        not isinstance(connect_version, int) or isinstance(connect_version, bool)
    ):
        raise ValueError(f"Invalid Connect version found: {connect_version}")
    wanted = connect_version if connect_version is not None else version
    if wanted is not None and wanted >= 0:
        if schema.version is not None and schema.version != wanted:
            raise ValueError(
                f"Mismatched versions: version already added to SchemaBuilder ({schema.version})"
                f" differs from version in source schema ({wanted})"
            )
        schema = dataclasses.replace(schema, version=wanted)
    connect_params = props.get("connect.parameters")
    if connect_params is not None:
        if not isinstance(connect_params, Mapping):
            raise ValueError(
                f"Expected JSON object for schema parameters but found: {connect_params}"
            )
        for k, v in connect_params.items():
            if not isinstance(v, str):
                raise ValueError(f"Expected schema parameter values to be strings but found: {v}")
            params[str(k)] = v
    for prop, raw in props.items():
        if prop.startswith("avro"):
            params[prop] = raw if isinstance(raw, str) else json.dumps(raw, separators=(",", ":"))
    connect_default = props.get("connect.default", _MISSING)
    default_json = field_default
    if field_default is _MISSING:
        default_json = connect_default
    elif connect_default is _MISSING:
        params[FIELD_DEFAULT_FLAG] = "true"
    if params:
        schema = dataclasses.replace(schema, parameters=params)
    if default_json is not _MISSING and default_json is not None:
        schema = dataclasses.replace(schema, default=_avro_default(schema, a, default_json))
    connect_name = props.get("connect.name")
    if connect_name is not None and not isinstance(connect_name, str):
        raise ValueError(f"Invalid schema name: {connect_name}")
    if connect_name is None and kind in ("record", "enum"):
        connect_name = a.name
    schema = _connect_name(schema, connect_name)
    if optional:
        schema = dataclasses.replace(schema, optional=True)
    return schema


def _is_map_entry(a: _Avro) -> bool:
    if a.kind != "record":
        return False
    return a.name == f"{_NS}.MapEntry" or a.props.get("connect.internal.type") == "MapEntry"


def _avro_default(schema: ConnectSchema, a: _Avro, raw: Any) -> Any:
    """AvroData.defaultValueFromAvro: an Avro JSON default as a Connect value."""
    if raw is None:
        return None
    kind = a.kind
    if kind == "union":
        if schema.name != AVRO_UNION:  # [null, T]: not reached (AvroData drops such defaults)
            return None
        first = a.members[0]
        if first.kind == "null":
            return None
        field_name = _union_field_name(first)
        inner = schema.field(field_name)
        assert inner is not None
        out = {f.name: None for f in schema.fields}
        out[field_name] = _avro_default(inner.schema, first, raw)
        return out
    if schema.name == DECIMAL:
        if isinstance(raw, str):
            unscaled = int.from_bytes(raw.encode("latin-1"), "big", signed=True)
            return Decimal(unscaled).scaleb(-int(schema.parameters["scale"]))
        return None
    if schema.name == DATE and isinstance(raw, int):
        return _EPOCH_DAY + timedelta(days=raw)
    if schema.name == TIME and isinstance(raw, int):
        return (datetime.min + timedelta(milliseconds=raw)).time()
    if schema.name == TIMESTAMP and isinstance(raw, int):
        return _EPOCH + timedelta(milliseconds=raw)
    t = schema.type
    if t is Type.BYTES:
        return raw.encode("latin-1") if isinstance(raw, str) else None
    if t in (Type.FLOAT32, Type.FLOAT64):
        return float(raw)
    if t is Type.ARRAY:
        assert a.items is not None and schema.value_schema is not None
        return [_avro_default(schema.value_schema, a.items, v) for v in raw]
    if t is Type.MAP:
        assert schema.key_schema is not None and schema.value_schema is not None
        if kind == "map" and isinstance(raw, Mapping):
            assert a.items is not None
            return {k: _avro_default(schema.value_schema, a.items, v) for k, v in raw.items()}
        raise ValueError(f"Invalid JSON for map default value: {raw!r}")
    if t is Type.STRUCT:
        if not isinstance(raw, Mapping):
            raise ValueError(f"Invalid JSON for record default value: {raw!r}")
        out = {}
        for f, af in zip(schema.fields, a.fields, strict=True):
            out[f.name] = _avro_default(f.schema, af.type, raw.get(f.name))
        return out
    return raw


def avro_to_connect_schema(
    avro: Any, version: int | None = None, named: Mapping[str, Any] | None = None
) -> ConnectSchema:
    """The Connect schema of an Avro schema (parsed JSON), as AvroData.toConnectSchema.

    Args:
        avro: the Avro schema as parsed JSON.
        version: the registry version (used unless the schema carries ``connect.version``).
        named: referenced named types (``{"full.Name": schema JSON}``), from schema references.

    Raises:
        ValueError: a schema AvroData rejects, or a recursive one.
    """
    return _avro_schema(_parse_root(avro, named or {}), False, version=version)


def _parse_root(avro: Any, named_json: Mapping[str, Any]) -> _Avro:
    named: dict[str, _Avro] = {}
    for ref in named_json.values():
        _parse_avro(ref, None, named, set())
    return _parse_avro(avro, None, named, set())


# --- values


def _fastavro_schema(a: _Avro, emitted: set[str]) -> Any:
    """The schema handed to fastavro: AvroData's logical types only (others read raw)."""
    kind = a.kind
    if kind == "union":
        return [_fastavro_schema(m, emitted) for m in a.members]
    if kind in _NAMED:
        assert a.name is not None
        if a.name in emitted:
            return a.name
        emitted.add(a.name)
    node: dict[str, Any] = {"type": kind}
    logical = a.logical
    if (kind in ("bytes", "fixed") and logical == "decimal") or (
        (kind, logical) in (("int", "date"), ("int", "time-millis"), ("long", "timestamp-millis"))
    ):
        node["logicalType"] = logical
        if logical == "decimal":
            node["scale"] = a.props.get("scale", 0)
            node["precision"] = a.props.get("precision", 64)
    if kind == "record":
        node["name"] = a.name
        node["fields"] = [
            {"name": f.name, "type": _fastavro_schema(f.type, emitted)} for f in a.fields
        ]
    elif kind == "enum":
        node["name"] = a.name
        node["symbols"] = a.symbols
    elif kind == "fixed":
        node["name"] = a.name
        node["size"] = a.size
    elif kind == "array":
        assert a.items is not None
        node["items"] = _fastavro_schema(a.items, emitted)
    elif kind == "map":
        assert a.items is not None
        node["values"] = _fastavro_schema(a.items, emitted)
    return node if len(node) > 1 else kind


def _has_general_union(a: _Avro, seen: set[int] | None = None) -> bool:
    seen = set() if seen is None else seen
    if id(a) in seen:
        return False
    seen.add(id(a))
    if a.kind == "union" and not (len(a.members) == 2 and any(m.kind == "null" for m in a.members)):
        return True
    children = [f.type for f in a.fields] + a.members + ([a.items] if a.items else [])
    return any(_has_general_union(c, seen) for c in children)


Convert = Callable[[Any], Any]


def _avro_value(a: _Avro, s: ConnectSchema, named: bool) -> Convert | None:
    """fastavro's datum -> the Connect value; None when they are the same already."""
    kind = a.kind
    if kind == "union":
        if s.name != AVRO_UNION:
            member = next(m for m in a.members if m.kind != "null")
            inner = _avro_value(member, dataclasses.replace(s, optional=False), named)
            if named and member.kind in _NAMED:
                if inner is None:
                    return lambda v: None if v is None else v[1]
                conv = inner
                return lambda v: None if v is None else conv(v[1])
            if inner is None:
                return None
            conv2 = inner
            return lambda v: None if v is None else conv2(v)
        return _union_value(a, s, named)
    if kind == "record":
        convs = [
            (f.name, _avro_value(af.type, f.schema, named))
            for f, af in zip(s.fields, a.fields, strict=True)
        ]
        if all(c is None for _, c in convs):
            return None
        pairs = [(n, c) for n, c in convs]

        def record(v: Any) -> Any:
            return {n: (v[n] if c is None else c(v[n])) for n, c in pairs}

        return record
    if kind == "array":
        assert a.items is not None
        if s.type is Type.MAP:
            assert s.key_schema is not None and s.value_schema is not None
            entry = a.items
            kf = next(f for f in entry.fields if f.name == "key")
            vf = next(f for f in entry.fields if f.name == "value")
            kc = _avro_value(kf.type, s.key_schema, named) or _identity
            vc = _avro_value(vf.type, s.value_schema, named) or _identity
            return lambda v: {kc(e["key"]): vc(e["value"]) for e in v}
        assert s.value_schema is not None
        ic = _avro_value(a.items, s.value_schema, named)
        if ic is None:
            return None
        item = ic
        return lambda v: [item(x) for x in v]
    if kind == "map":
        assert a.items is not None and s.value_schema is not None
        mc = _avro_value(a.items, s.value_schema, named)
        if mc is None:
            return None
        val = mc
        return lambda v: {k: val(x) for k, x in v.items()}
    return None


def _identity(v: Any) -> Any:
    return v


def _union_value(a: _Avro, s: ConnectSchema, named: bool) -> Convert:
    """A general union's datum -> the io.confluent.connect.avro.Union struct value."""
    by_name: dict[str, tuple[str, Convert | None]] = {}
    by_kind: dict[str, tuple[str, Convert | None]] = {}
    for m in a.members:
        if m.kind == "null":
            continue
        field_name = _union_field_name(m)
        f = s.field(field_name)
        assert f is not None
        conv = _avro_value(m, dataclasses.replace(f.schema, optional=False), named)
        if m.kind in _NAMED:
            assert m.name is not None
            by_name[m.name] = (field_name, conv)
        logical = f.schema.name if f.schema.name in (DATE, TIME, TIMESTAMP, DECIMAL) else None
        by_kind.setdefault(logical or m.kind, (field_name, conv))
    empty = {f.name: None for f in s.fields}

    def pick(v: Any) -> tuple[str, Convert | None, Any]:
        if v.__class__ is tuple and len(v) == 2 and v[0] in by_name:
            return (*by_name[v[0]], v[1])
        if isinstance(v, bool):
            keys = ["boolean"]
        elif isinstance(v, int):
            keys = ["int", "long"] if -(2**31) <= v < 2**31 else ["long"]
        elif isinstance(v, float):
            keys = ["double", "float"]
        elif isinstance(v, str):
            keys = ["string"]
        elif isinstance(v, datetime):
            keys = [TIMESTAMP]
        elif isinstance(v, date):
            keys = [DATE]
        elif isinstance(v, time):
            keys = [TIME]
        elif isinstance(v, Decimal):
            keys = [DECIMAL]
        elif isinstance(v, bytes | bytearray):
            keys = ["bytes"]
        elif isinstance(v, list):
            keys = ["array"]
        elif isinstance(v, dict):
            keys = ["map"]
        else:
            keys = []
        for k in keys:
            if k in by_kind:
                return (*by_kind[k], v)
        raise ValueError(f"Did not find matching union field for data: {v!r}")

    def union(v: Any) -> Any:
        if v is None:
            return None
        field_name, conv, inner = pick(v)
        out = dict(empty)
        out[field_name] = inner if conv is None else conv(inner)
        return out

    return union


class AvroConverter(_RegistryConverter):
    """Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading)."""

    schema_type = "Avro"

    def _build(self, registered: Any, version: int, topic: str) -> _Prepared:
        import fastavro

        named = self._references(registered, topic)
        try:
            root_json = json.loads(registered.schema_str)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the registered schema is not JSON: {exc}") from None
        root = _parse_root(root_json, named)
        schema = _avro_schema(root, False, version=version)
        has_union = _has_general_union(root)
        convert = _avro_value(root, schema, has_union)
        try:
            parsed = fastavro.parse_schema(_fastavro_schema(root, set()))
        except Exception as exc:
            raise ValueError(f"fastavro cannot read the schema: {exc}") from None
        read = fastavro.schemaless_reader

        def decode(data: bytes) -> Any:
            buf = io.BytesIO(data)
            buf.seek(5)
            datum = read(buf, parsed, None, return_named_type=has_union)
            if buf.tell() != len(data):
                raise ValueError(
                    f"{len(data) - buf.tell()} bytes left after the Avro datum (wrong schema?)"
                )
            return datum if convert is None else convert(datum)

        return _Prepared(schema, decode)

    def _references(self, registered: Any, topic: str) -> dict[str, Any]:
        """Named types of the schema's references (depth first), by full name."""
        out: dict[str, Any] = {}

        def visit(schema: Any, seen: set[tuple[str, int]]) -> None:
            for ref in schema.references or []:
                key = (ref.subject, int(ref.version))
                if key in seen:
                    continue
                seen.add(key)
                found = self.registry.referenced(ref.subject, int(ref.version), topic)
                visit(found.schema, seen)
                out[str(ref.name)] = json.loads(found.schema.schema_str)

        visit(registered, set())
        return out


# =============================================================================================
# JSON Schema: JsonSchemaData (generalized.sum.type.support=false, required fields)

JSON_ONE_OF = "io.confluent.connect.json.OneOf"
JSON_ENUM = "io.confluent.connect.json.Enum"
_JSON_CONNECT_TYPES = {
    "int8": Type.INT8,
    "int16": Type.INT16,
    "int32": Type.INT32,
    "int64": Type.INT64,
    "float32": Type.FLOAT32,
    "float64": Type.FLOAT64,
    "bytes": Type.BYTES,
}
_STRING_KEYWORDS = ("minLength", "maxLength", "pattern", "format", "contentEncoding")
_NUMBER_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_OBJECT_KEYWORDS = (
    "properties",
    "additionalProperties",
    "required",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "dependencies",
    "propertyNames",
)
_ARRAY_KEYWORDS = ("items", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains")


class _JsonRefs:
    """Resolves ``$ref``: JSON pointers within the root, or referenced schemas by name."""

    def __init__(self, root: Any, documents: Mapping[str, Any]) -> None:
        self.root = root
        self.documents = documents
        self.busy: list[int] = []

    def resolve(self, ref: str) -> Any:
        doc_name, _, pointer = ref.partition("#")
        doc = self.root if not doc_name else self.documents.get(doc_name)
        if doc is None:
            raise ValueError(f"JSON Schema $ref {ref!r} cannot be resolved")
        node = doc
        for part in [p for p in pointer.split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise ValueError(f"JSON Schema $ref {ref!r} cannot be resolved")
        return node


def _json_kind(node: Mapping[str, Any]) -> str | None:
    """Which everit schema a JSON Schema object loads as."""
    if "$ref" in node:
        return "ref"
    if any(k in node for k in ("allOf", "anyOf", "oneOf")):
        return "combined"
    t = node.get("type")
    if isinstance(t, list):
        return "multi"
    has_enum, has_const = "enum" in node, "const" in node
    if isinstance(t, str):
        if has_enum or has_const:
            return "typed-enum" if has_enum else "typed-const"
        return t
    if has_enum:
        return "enum"
    if has_const:
        return "const"
    for kind, keywords in (
        ("object", _OBJECT_KEYWORDS),
        ("array", _ARRAY_KEYWORDS),
        ("string", _STRING_KEYWORDS),
        ("number", _NUMBER_KEYWORDS),
    ):
        if any(k in node for k in keywords):
            return kind
    return None


def _json_schema(
    node: Any, refs: _JsonRefs, version: int | None = None, optional: bool = False
) -> ConnectSchema:
    """JsonSchemaData.toConnectSchema(jsonSchema, version, forceOptional)."""
    if isinstance(node, bool) or not isinstance(node, Mapping):
        raise ValueError(f"Unsupported schema type {node!r}")
    kind = _json_kind(node)
    connect_type = node.get("connect.type")
    params: dict[str, str] = {}
    fields: tuple[Field, ...] = ()
    key = value = None
    name: str | None = None
    if kind == "ref":
        ref = str(node["$ref"])
        if id(node) in refs.busy:
            raise ValueError(f"recursive JSON Schemas are not supported ($ref {ref!r})")
        refs.busy.append(id(node))
        try:
            return _json_schema(refs.resolve(ref), refs, version, optional)
        finally:
            refs.busy.pop()
    if kind == "multi":
        members = [{**node, "type": t} for t in node["type"]]
        return _json_combined(node, members, "anyOf", refs, version, optional)
    if kind == "combined":
        for criterion in ("oneOf", "anyOf", "allOf"):
            if criterion in node:
                return _json_combined(
                    node, list(node[criterion]), criterion, refs, version, optional
                )
    if kind in ("typed-enum", "enum") and (
        node.get("type") in (None, "string") or not isinstance(node.get("type"), str)
    ):
        t = Type.STRING
        params[JSON_ENUM] = ""
        for symbol in node.get("enum", []):
            text = "<NULL>" if symbol is None else _java_text(symbol)
            params[f"{JSON_ENUM}.{text}"] = text
    elif kind in ("typed-enum", "typed-const", "const"):
        base = node.get("type")
        if kind == "const" or base not in ("string", "integer", "number"):
            raise ValueError(f"Unsupported JSON Schema {dict(node)!r}")
        return _json_schema({k: v for k, v in node.items() if k not in ("enum", "const")}, refs,
                            version, optional)  # fmt: skip
    elif kind == "boolean":
        t = Type.BOOLEAN
    elif kind in ("integer", "number"):
        if connect_type is None:
            t = Type.INT64 if kind == "integer" else Type.FLOAT64
        elif connect_type in _JSON_CONNECT_TYPES:
            t = _JSON_CONNECT_TYPES[connect_type]
        else:
            raise ValueError(f"Unsupported type {connect_type}")
    elif kind == "string":
        t = Type.BYTES if connect_type == "bytes" else Type.STRING
    elif kind == "array":
        items = node.get("items")
        if not isinstance(items, Mapping):
            raise ValueError("Array schema did not specify the items type")
        if connect_type == "map" and _json_kind(items) == "object":
            props = items.get("properties", {})
            t = Type.MAP
            key = _json_schema(props.get("key"), refs)
            value = _json_schema(props.get("value"), refs)
        else:
            t, value = Type.ARRAY, _json_schema(items, refs)
    elif kind == "object":
        if connect_type == "map":
            t, key = Type.MAP, ConnectSchema(Type.STRING)
            value = _json_schema(node.get("additionalProperties"), refs)
        else:
            t = Type.STRUCT
            ordered: dict[int, tuple[str, Any]] = {}
            for prop, sub in (node.get("properties") or {}).items():
                index = sub.get("connect.index") if isinstance(sub, Mapping) else None
                if not isinstance(index, int) or isinstance(index, bool):
                    index = len(ordered)
                ordered[index] = (prop, sub)
            fields = tuple(
                Field(prop, _json_schema(sub, refs)) for _, (prop, sub) in sorted(ordered.items())
            )
    else:
        raise ValueError(f"Unsupported schema type {dict(node)!r}")
    schema = ConnectSchema(t, name=name, fields=fields, key_schema=key, value_schema=value)
    return _json_finish(schema, node, params, version, optional)


def _json_finish(
    schema: ConnectSchema,
    node: Mapping[str, Any],
    params: dict[str, str],
    version: int | None,
    optional: bool,
) -> ConnectSchema:
    title = node.get("title")
    if isinstance(title, str) and schema.name is None:
        schema = dataclasses.replace(schema, name=title)
    connect_version = node.get("connect.version")
    if isinstance(connect_version, int) and not isinstance(connect_version, bool):
        schema = dataclasses.replace(schema, version=connect_version)
    elif version is not None:
        schema = dataclasses.replace(schema, version=version)
    description = node.get("description")
    if isinstance(description, str):
        schema = dataclasses.replace(schema, doc=description)
    connect_params = node.get("connect.parameters")
    if isinstance(connect_params, Mapping):
        params.update({str(k): str(v) for k, v in connect_params.items()})
    if params:
        schema = dataclasses.replace(schema, parameters=params)
    if "default" in node:
        default = _json_value(schema, node["default"], present=True)
        schema = dataclasses.replace(schema, default=default)
    if optional:
        schema = dataclasses.replace(schema, optional=True)
    return schema


def _json_combined(
    node: Mapping[str, Any],
    members: list[Any],
    criterion: str,
    refs: _JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema:
    if criterion == "allOf":
        return _json_all_of(node, members, refs, version, optional)

    # Keywords beside oneOf/anyOf (title, description, ...) belong to the combined schema,
    # which Connect drops; a [null, T] pair is T made optional.
    def is_null(m: Any) -> bool:
        return isinstance(m, Mapping) and m.get("type") == "null"

    if len(members) == 2 and any(is_null(m) for m in members):
        other = next(m for m in members if not is_null(m))
        return _json_schema(other, refs, version, True)
    out = []
    index = 0
    made_optional = False
    for m in members:
        if is_null(m):
            made_optional = True
            continue
        out.append(Field(f"{JSON_ONE_OF}.field.{index}", _json_schema(m, refs, None, True)))
        index += 1
    schema = ConnectSchema(Type.STRUCT, name=JSON_ONE_OF, fields=tuple(out))
    return _json_finish(schema, {}, {}, version, optional or made_optional)


def _json_all_of(
    node: Mapping[str, Any],
    members: list[Any],
    refs: _JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema:
    """JsonSchemaData.allOfToConnectSchema: merged object properties, else the meaningful part."""
    properties: dict[str, Any] = {}

    def collect(m: Any) -> None:
        if not isinstance(m, Mapping):
            return
        if "$ref" in m:
            collect(refs.resolve(str(m["$ref"])))
        elif "allOf" in m:
            for sub in m["allOf"]:
                collect(sub)
        elif _json_kind(m) == "object":
            properties.update(m.get("properties") or {})

    for m in members:
        collect(m)
    if properties:
        fields = tuple(Field(p, _json_schema(s, refs)) for p, s in properties.items())
        schema = ConnectSchema(Type.STRUCT, fields=fields)
        return dataclasses.replace(schema, optional=True) if optional else schema
    kinds = {(_json_kind(m) if isinstance(m, Mapping) else None): m for m in members}
    combined = next(
        (m for m in members if isinstance(m, Mapping) and _json_kind(m) == "combined"), None
    )
    if combined is not None:
        return _json_schema(combined, refs, version, optional)
    for wanted in ("string", "integer", "number"):
        if wanted in kinds and ({"const", "enum"} & kinds.keys() or wanted != "string"):
            if wanted == "string" and "enum" in kinds:
                return _json_schema(kinds["enum"], refs, version, optional)
            return _json_schema(kinds[wanted], refs, version, optional)
    if "string" in kinds and "format" in kinds["string"]:
        return _json_schema(kinds["string"], refs, version, optional)
    ref = kinds.get("ref")
    if ref is not None:
        return _json_schema(ref, refs, version, optional)
    raise ValueError(f"Unsupported criterion allOf for {dict(node)!r}")


def _java_text(value: Any) -> str:
    """Java's ``toString`` of a JSON scalar (enum symbols)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def json_schema_to_connect(
    node: Any, version: int | None = None, documents: Mapping[str, Any] | None = None
) -> ConnectSchema:
    """The Connect schema of a JSON Schema (parsed JSON), as JsonSchemaData.toConnectSchema.

    Raises:
        ValueError: a schema JsonSchemaData rejects (e.g. ``{}``, ``"type": "null"``).
    """
    return _json_schema(node, _JsonRefs(node, documents or {}), version)


_INT_BITS = {Type.INT8: 8, Type.INT16: 16, Type.INT32: 32, Type.INT64: 64}


def _narrow(value: int, bits: int) -> int:
    """Java's narrowing of a long to ``bits`` (two's complement wrap-around)."""
    mask = (1 << bits) - 1
    value &= mask
    return value - (1 << bits) if value >> (bits - 1) else value


def _json_number(node: Any) -> Decimal | int | float | None:
    if isinstance(node, bool) or not isinstance(node, int | float | Decimal):
        return None
    return node


def _json_value(schema: ConnectSchema, node: Any, present: bool = True) -> Any:
    """JsonSchemaData.toConnectData(schema, jsonValue); ``present=False``: a missing field."""
    if not present or node is None:
        if schema.default is not None:
            return schema.default
        if not present or schema.optional:
            return None
        raise ValueError(f"Invalid null value for required {schema.type.name} field")
    name = schema.name
    if name == DECIMAL:
        number = _json_number(node)
        if number is not None:
            return Decimal(number) if not isinstance(number, float) else Decimal(repr(number))
        if isinstance(node, str):
            try:
                raw = base64.b64decode(node, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ValueError("Invalid bytes for Decimal field") from exc
            scale = int(schema.parameters.get("scale", "0"))
            return Decimal(int.from_bytes(raw, "big", signed=True)).scaleb(-scale)
        raise ValueError("Invalid type for Decimal, underlying representation should be numeric")
    if name in (DATE, TIME, TIMESTAMP):
        if not isinstance(node, int) or isinstance(node, bool):
            raise ValueError(f"Invalid type for {name.rpartition('.')[2]}: {node!r}")
        if name == DATE:
            return _EPOCH_DAY + timedelta(days=node)
        if name == TIME:
            return (datetime.min + timedelta(milliseconds=node % 86_400_000)).time()
        return _EPOCH + timedelta(milliseconds=node)
    t = schema.type
    if t is Type.BOOLEAN:
        return node is True
    if t in _INT_BITS:
        number = _json_number(node)
        if number is None:
            return 0
        whole = int(number) if not isinstance(number, float) or math.isfinite(number) else 0
        return _narrow(whole, _INT_BITS[t])
    if t in (Type.FLOAT32, Type.FLOAT64):
        number = _json_number(node)
        return 0.0 if number is None else float(number)
    if t is Type.STRING:
        return node if isinstance(node, str) else None
    if t is Type.BYTES:
        if isinstance(node, str):
            try:
                return base64.b64decode(node, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ValueError("Invalid bytes field") from exc
        number = _json_number(node)
        return Decimal(0) if number is None else Decimal(str(number))
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        items = node if isinstance(node, list) else list(node.values()) if isinstance(
            node, dict) else []  # fmt: skip
        return [_json_value(schema.value_schema, v) for v in items]
    if t is Type.MAP:
        key_schema, value_schema = schema.key_schema, schema.value_schema
        assert key_schema is not None and value_schema is not None
        if key_schema.type is Type.STRING and not key_schema.optional:
            if not isinstance(node, dict):
                raise ValueError(
                    "Maps with string fields should be encoded as JSON objects, but found "
                    + type(node).__name__
                )
            return {k: _json_value(value_schema, v) for k, v in node.items()}
        if not isinstance(node, list):
            raise ValueError("Maps with non-string fields should be encoded as JSON array")
        out = {}
        for entry in node:
            if not isinstance(entry, dict) or len(entry) != 2:
                raise ValueError(f"Found invalid map entry: {entry!r}")
            out[_json_value(key_schema, entry.get("key"), "key" in entry)] = _json_value(
                value_schema, entry.get("value"), "value" in entry
            )
        return out
    if name == JSON_ONE_OF:
        return _json_one_of(schema, node)
    if not isinstance(node, dict):
        raise ValueError(f"Structs should be encoded as JSON objects, but found {node!r}")
    return {f.name: _json_value(f.schema, node.get(f.name), f.name in node) for f in schema.fields}


def _json_matches(schema: ConnectSchema, node: Any) -> bool:
    """JsonSchemaData.isInstanceOfSchemaTypeForSimpleSchema."""
    t = schema.type
    if t in _INT_BITS:
        return isinstance(node, int) and not isinstance(node, bool)
    if t in (Type.FLOAT32, Type.FLOAT64):
        return _json_number(node) is not None
    if t is Type.BOOLEAN:
        return isinstance(node, bool)
    if t is Type.STRING:
        return isinstance(node, str)
    if t is Type.BYTES:
        return isinstance(node, Decimal | float)
    if t is Type.ARRAY:
        return isinstance(node, list)
    if t is Type.MAP:
        return isinstance(node, dict | list)
    return False


def _json_one_of(schema: ConnectSchema, node: Any) -> Any:
    best, best_count = None, -1
    for index, f in enumerate(schema.fields):
        if _json_matches(f.schema, node):
            best = index
            break
        if f.schema.type is Type.STRUCT and isinstance(node, dict):
            count = len({g.name for g in f.schema.fields} & node.keys())
            if count > best_count:
                best, best_count = index, count
    if best is None:
        raise ValueError("Did not find matching oneof field for data")
    out: dict[str, Any] = {f.name: None for f in schema.fields}
    chosen = schema.fields[best]
    out[chosen.name] = _json_value(chosen.schema, node)
    return out


_JSON_DECODER = json.JSONDecoder(parse_float=Decimal)


class JsonSchemaConverter(_RegistryConverter):
    """Confluent's ``io.confluent.connect.json.JsonSchemaConverter`` (reading)."""

    schema_type = "JSON Schema"

    def _build(self, registered: Any, version: int, topic: str) -> _Prepared:
        try:
            root = json.loads(registered.schema_str)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the registered schema is not JSON: {exc}") from None
        documents: dict[str, Any] = {}
        for ref in registered.references or []:
            found = self.registry.referenced(ref.subject, int(ref.version), topic)
            documents[str(ref.name)] = json.loads(found.schema.schema_str)
        schema = json_schema_to_connect(root, version, documents)
        decoder = _JSON_DECODER

        def decode(data: bytes) -> Any:
            try:
                node = decoder.decode(data[5:].decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise ValueError(f"the payload is not JSON: {exc}") from None
            return _json_value(schema, node)

        return _Prepared(schema, decode)


# =============================================================================================
# Protobuf: ProtobufData (defaults: all fields optional, wrapper.for.raw.primitives=true)

PROTO_NS = "io.confluent.connect.protobuf"
PROTO_ENUM = f"{PROTO_NS}.Enum"
PROTO_UNION = f"{PROTO_NS}.Union"
PROTO_TAG = f"{PROTO_NS}.Tag"
PROTO_TYPE = f"{PROTO_NS}.Type"
_WRAPPERS = {
    "google.protobuf.DoubleValue": Type.FLOAT64,
    "google.protobuf.FloatValue": Type.FLOAT32,
    "google.protobuf.Int64Value": Type.INT64,
    "google.protobuf.UInt64Value": Type.INT64,
    "google.protobuf.Int32Value": Type.INT32,
    "google.protobuf.UInt32Value": Type.INT64,
    "google.protobuf.BoolValue": Type.BOOLEAN,
    "google.protobuf.StringValue": Type.STRING,
    "google.protobuf.BytesValue": Type.BYTES,
}
_BUILTIN_PREFIXES = ("google/protobuf/", "google/type/", "confluent/")


def _field_meta_params(field: Any) -> dict[str, str]:
    """The ``confluent.field_meta`` option's params of a protobuf field, if any."""
    try:
        from confluent_kafka.schema_registry.confluent import meta_pb2

        extension = getattr(meta_pb2, "field_meta")  # noqa: B009 (generated module)
        options = field.GetOptions()
        if options.HasExtension(extension):
            return dict(options.Extensions[extension].params)
    except Exception:  # options of another pool, or no confluent meta: no params
        return {}
    return {}


def _map_field_name(entry_name: str) -> str:
    """ProtobufSchema.toMapField: ``FooBarEntry`` -> ``foo_bar`` (Guava UPPER_CAMEL ->
    LOWER_UNDERSCORE)."""
    if not entry_name.endswith("Entry"):
        return entry_name
    s = entry_name[: -len("Entry")]
    out = []
    for i, ch in enumerate(s):
        if ch.isupper() and i > 0:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def _is_map_field(field: Any) -> bool:
    from google.protobuf.descriptor import FieldDescriptor

    if field.type != FieldDescriptor.TYPE_MESSAGE or not _is_repeated(field):
        return False
    entry = field.message_type
    names = [f.name for f in entry.fields]
    return (
        entry.name.endswith("Entry")
        and names == ["key", "value"]
        and not any(_is_repeated(f) for f in entry.fields)
    )


def _is_repeated(field: Any) -> bool:
    from google.protobuf.descriptor import FieldDescriptor

    repeated = getattr(field, "is_repeated", None)
    if isinstance(repeated, bool):
        return repeated
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def _proto3_optional(desc: Any) -> set[str]:
    """Names of the fields declared ``optional`` in proto3 (synthetic oneofs)."""
    from google.protobuf import descriptor_pb2

    proto = descriptor_pb2.DescriptorProto()
    desc.CopyToProto(proto)
    return {f.name for f in proto.field if f.proto3_optional}


def _real_oneofs(desc: Any) -> list[Any]:
    synthetic = _proto3_optional(desc)
    return [
        o
        for o in desc.oneofs
        if not (len(o.fields) == 1 and o.fields[0].name in synthetic and o.name.startswith("_"))
    ]


def _proto_struct(desc: Any, version: int | None, busy: tuple[str, ...] = ()) -> ConnectSchema:
    """ProtobufData.toConnectSchema(ctx, descriptor, version)."""
    if desc.full_name in busy:
        raise ValueError(f"recursive Protobuf messages are not supported ({desc.full_name})")
    busy = (*busy, desc.full_name)
    if not busy[:-1] and desc.full_name in _WRAPPERS:  # wrapper.for.raw.primitives=true
        schema = ConnectSchema(_WRAPPERS[desc.full_name])
    else:
        fields = []
        oneofs = _real_oneofs(desc)
        in_oneof: set[str] = set()
        for oneof in oneofs:
            members = tuple(Field(f.name, _proto_field(f, busy)) for f in oneof.fields)
            in_oneof.update(f.name for f in oneof.fields)
            union = ConnectSchema(
                Type.STRUCT, optional=True, name=f"{PROTO_UNION}.{oneof.name}", fields=members
            )
            fields.append(Field(f"{oneof.name}_{oneof.index}", union))
        for f in desc.fields:
            if f.name not in in_oneof:
                fields.append(Field(f.name, _proto_field(f, busy)))
        schema = ConnectSchema(Type.STRUCT, name=desc.name, fields=tuple(fields))
    if version is not None:
        schema = dataclasses.replace(schema, version=version)
    return schema


def _proto_field(field: Any, busy: tuple[str, ...]) -> ConnectSchema:
    """ProtobufData.toConnectSchema(ctx, fieldDescriptor)."""
    from google.protobuf.descriptor import FieldDescriptor as F

    ft = field.type
    params: dict[str, str] = {}
    name: str | None = None
    version: int | None = None
    key = value = None
    fields: tuple[Field, ...] = ()
    if ft in (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32):
        connect_type = _field_meta_params(field).get("connect.type")
        if connect_type in ("int8", "int16"):
            t = Type(connect_type)
        else:
            t = Type.INT32
            if ft != F.TYPE_INT32:
                params[PROTO_TYPE] = "sint32" if ft == F.TYPE_SINT32 else "sfixed32"
    elif ft in (F.TYPE_UINT32, F.TYPE_FIXED32, F.TYPE_INT64, F.TYPE_UINT64, F.TYPE_SINT64,
                F.TYPE_FIXED64, F.TYPE_SFIXED64):  # fmt: skip
        t = Type.INT64
        if ft != F.TYPE_INT64:
            params[PROTO_TYPE] = _PROTO_TYPE_NAMES[ft]
    elif ft == F.TYPE_FLOAT:
        t = Type.FLOAT32
    elif ft == F.TYPE_DOUBLE:
        t = Type.FLOAT64
    elif ft == F.TYPE_BOOL:
        t = Type.BOOLEAN
    elif ft == F.TYPE_STRING:
        t = Type.STRING
    elif ft == F.TYPE_BYTES:
        t = Type.BYTES
    elif ft == F.TYPE_ENUM:
        enum = field.enum_type
        t, name = Type.STRING, enum.name
        params[PROTO_ENUM] = enum.name
        for v in enum.values:
            params[f"{PROTO_ENUM}.{v.name}"] = str(v.number)
    elif ft == F.TYPE_MESSAGE:
        full = field.message_type.full_name
        if full == "confluent.type.Decimal":
            meta = _field_meta_params(field)
            t, name, version = Type.BYTES, DECIMAL, 1
            params["scale"] = str(_int_or(meta.get("scale"), 0))
            precision = _int_or(meta.get("precision"), None)
            if precision is not None:
                params["connect.decimal.precision"] = str(precision)
        elif full in ("google.type.Date", "google.type.TimeOfDay"):
            t = Type.INT32
            name, version = (DATE if full == "google.type.Date" else TIME), 1
        elif full == "google.protobuf.Timestamp":
            t, name, version = Type.INT64, TIMESTAMP, 1
        elif _is_map_field(field):
            entry = field.message_type
            t, name = Type.MAP, _map_field_name(entry.name)
            key = _proto_field(entry.fields[0], busy)
            value = _proto_field(entry.fields[1], busy)
        else:
            nested = _proto_struct(field.message_type, None, busy)
            t, name, fields = Type.STRUCT, nested.name, nested.fields
    else:
        raise ValueError(f"Unknown Connect schema type: {field.type}")
    schema = ConnectSchema(
        t,
        optional=True,
        name=name,
        version=version,
        parameters=params,
        fields=fields,
        key_schema=key,
        value_schema=value,
    )
    if _is_repeated(field) and t is not Type.MAP:
        schema = ConnectSchema(Type.ARRAY, optional=True, value_schema=schema)
    return dataclasses.replace(
        schema, parameters={**schema.parameters, PROTO_TAG: str(field.number)}
    )


def _int_or(text: str | None, default: int | None) -> int | None:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


_PROTO_TYPE_NAMES: dict[int, str] = {}


def _init_type_names() -> None:
    from google.protobuf.descriptor import FieldDescriptor as F

    _PROTO_TYPE_NAMES.update(
        {
            F.TYPE_UINT32: "uint32",
            F.TYPE_FIXED32: "fixed32",
            F.TYPE_UINT64: "uint64",
            F.TYPE_SINT64: "sint64",
            F.TYPE_FIXED64: "fixed64",
            F.TYPE_SFIXED64: "sfixed64",
        }
    )


def protobuf_to_connect_schema(desc: Any, version: int | None = None) -> ConnectSchema:
    """The Connect schema of a protobuf message descriptor, as ProtobufData.toConnectSchema.

    Raises:
        ValueError: a recursive message, or a group field.
    """
    if not _PROTO_TYPE_NAMES:
        _init_type_names()
    return _proto_struct(desc, version)


# --- values


def _proto_value(schema: ConnectSchema, field: Any) -> Convert:
    """A field's Python protobuf value -> its Connect value (ProtobufData.toConnectData)."""
    if schema.type is Type.ARRAY:
        assert schema.value_schema is not None
        element = _proto_scalar(schema.value_schema, field)
        return lambda v: [element(x) for x in v]
    if schema.type is Type.MAP:
        entry = field.message_type
        assert schema.key_schema is not None and schema.value_schema is not None
        kc = _proto_scalar(schema.key_schema, entry.fields[0])
        vc = _proto_scalar(schema.value_schema, entry.fields[1])
        return lambda v: {kc(k): vc(x) for k, x in v.items()}
    return _proto_scalar(schema, field)


def _proto_scalar(schema: ConnectSchema, field: Any) -> Convert:
    from google.protobuf.descriptor import FieldDescriptor as F

    ft = field.type
    name = schema.name
    if name == TIMESTAMP:
        return lambda m: _EPOCH + timedelta(milliseconds=m.seconds * 1000 + m.nanos // 1_000_000)
    if name == DATE:

        def to_date(m: Any) -> date:
            try:
                return date(m.year, m.month, m.day)
            except ValueError as exc:
                raise ValueError(f"Invalid google.type.Date {m.year}-{m.month}-{m.day}") from exc

        return to_date
    if name == TIME:

        def to_time(m: Any) -> time:
            try:
                return time(m.hours, m.minutes, m.seconds, (m.nanos // 1_000_000) * 1000)
            except ValueError as exc:
                raise ValueError(f"Invalid google.type.TimeOfDay: {exc}") from exc

        return to_time
    if name == DECIMAL:
        return lambda m: Decimal(int.from_bytes(m.value, "big", signed=True)).scaleb(-m.scale)
    if ft == F.TYPE_ENUM:
        enum = field.enum_type
        names = {v.number: v.name for v in enum.values}
        unknown = f"UNKNOWN_ENUM_VALUE_{enum.name}_"
        return lambda n: names.get(n) or f"{unknown}{n}"
    if ft in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return lambda n: n - (1 << 64) if n >= (1 << 63) else n
    if ft == F.TYPE_MESSAGE:
        return _proto_message(schema, field.message_type)
    if ft == F.TYPE_BYTES:
        return bytes
    return _identity


def _proto_message(schema: ConnectSchema, desc: Any) -> Convert:
    """A message -> a Connect struct dict (oneofs as union structs)."""
    if desc.full_name in _WRAPPERS and schema.type is not Type.STRUCT:
        conv = _proto_scalar(schema, desc.fields_by_name["value"])
        return lambda m: conv(m.value)
    synthetic = _proto3_optional(desc)
    oneofs = _real_oneofs(desc)
    plan: list[tuple[str, Any]] = []  # (connect field, how)
    for oneof in oneofs:
        f = schema.field(f"{oneof.name}_{oneof.index}")
        assert f is not None
        members = {
            m.name: _proto_value(_member(f.schema, m.name), m) for m in oneof.fields
        }  # fmt: skip
        plan.append((f.name, ("oneof", oneof.name, members, [m.name for m in oneof.fields])))
    in_oneof = {m.name for o in oneofs for m in o.fields}
    from google.protobuf.descriptor import FieldDescriptor as F

    for fd in desc.fields:
        if fd.name in in_oneof:
            continue
        f = schema.field(fd.name)
        assert f is not None
        always = (fd.type != F.TYPE_MESSAGE or _is_repeated(fd)) and fd.name not in synthetic
        plan.append((fd.name, ("field", fd.name, _proto_value(f.schema, fd), always)))

    def message(m: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, how in plan:
            if how[0] == "oneof":
                which = m.WhichOneof(how[1])
                if which is None:
                    out[key] = None
                else:
                    union = dict.fromkeys(how[3])
                    union[which] = how[2][which](getattr(m, which))
                    out[key] = union
            else:
                _, attr, conv, always = how
                out[key] = conv(getattr(m, attr)) if always or m.HasField(attr) else None
        return out

    return message


def _member(union: ConnectSchema, name: str) -> ConnectSchema:
    f = union.field(name)
    assert f is not None
    return f.schema


def _well_known_pool() -> Any:
    """A DescriptorPool with the files Confluent's serializers never send as references."""
    import importlib

    from google.protobuf import descriptor_pool

    pool = descriptor_pool.DescriptorPool()
    modules = [
        "google.protobuf.any_pb2",
        "google.protobuf.source_context_pb2",
        "google.protobuf.type_pb2",
        "google.protobuf.api_pb2",
        "google.protobuf.descriptor_pb2",
        "google.protobuf.duration_pb2",
        "google.protobuf.empty_pb2",
        "google.protobuf.field_mask_pb2",
        "google.protobuf.struct_pb2",
        "google.protobuf.timestamp_pb2",
        "google.protobuf.wrappers_pb2",
        "google.type.date_pb2",
        "google.type.timeofday_pb2",
        "google.type.dayofweek_pb2",
        "google.type.money_pb2",
        "google.type.latlng_pb2",
        "google.type.color_pb2",
        "google.type.month_pb2",
        "confluent_kafka.schema_registry.confluent.meta_pb2",
        "confluent_kafka.schema_registry.confluent.type.decimal_pb2",
    ]
    for name in modules:
        try:
            module = importlib.import_module(name)
            pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
        except Exception:  # googleapis-common-protos missing, or already added
            continue
    return pool


def _file_proto(schema_str: str, name: str) -> Any:
    """The FileDescriptorProto of a registered Protobuf schema (base64 of the serialized
    descriptor, as ``format=serialized`` or confluent-kafka's serializer give it)."""
    from google.protobuf import descriptor_pb2
    from google.protobuf.message import DecodeError

    try:
        raw = base64.b64decode(schema_str, validate=True)
    except (binascii.Error, ValueError):
        from s3connect.proto_text import parse_proto

        proto = parse_proto(schema_str)
    else:
        proto = descriptor_pb2.FileDescriptorProto()
        try:
            proto.ParseFromString(raw)
        except DecodeError as exc:
            raise ValueError(f"the registered Protobuf schema cannot be parsed: {exc}") from None
    proto.name = name
    return proto


def _message_at(pool: Any, proto: Any, indexes: list[int]) -> Any:
    """The message descriptor at Confluent's message indexes (declaration order)."""
    candidates = list(proto.message_type)
    names = []
    for depth, index in enumerate(indexes):
        if index >= len(candidates):
            where = "top-level" if depth == 0 else "nested"
            raise ValueError(
                f"message index {index} out of range, schema has {len(candidates)} {where} "
                "message(s)"
            )
        names.append(candidates[index].name)
        candidates = list(candidates[index].nested_type)
    full = ".".join([proto.package, *names] if proto.package else names)
    return pool.FindMessageTypeByName(full)


class ProtobufConverter(_RegistryConverter):
    """Confluent's ``io.confluent.connect.protobuf.ProtobufConverter`` (reading)."""

    schema_type = "Protobuf"
    _fmt = "serialized"

    def __init__(self, registry: Registry, *, is_key: bool = False) -> None:
        super().__init__(registry, is_key=is_key)
        self._files: dict[int, Any] = {}
        self._by_message: dict[tuple[str, int, tuple[int, ...]], _Prepared | _Broken] = {}

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode one framed record (magic byte, schema id, message indexes, message)."""
        if data is None:
            return None, None
        schema_id = wire_header(data, topic)
        indexes, pos = read_message_indexes(data, 5)
        key = (topic, schema_id, tuple(indexes))
        prepared = self._by_message.get(key)
        if prepared is None:
            prepared = self._prepare_message(topic, schema_id, indexes)
            self._by_message[key] = prepared
        if isinstance(prepared, _Broken):
            raise ValueError(prepared.message)
        try:
            return prepared.decode(data[pos:]), prepared.schema
        except ValueError:
            raise
        except Exception as exc:
            raise ValueError(
                f"Failed to deserialize data for topic {topic} with schema id {schema_id} "
                f"to Protobuf: {type(exc).__name__}: {exc}"
            ) from exc

    def _prepare_message(
        self, topic: str, schema_id: int, indexes: list[int]
    ) -> _Prepared | _Broken:
        try:
            registered = self.registry.schema(schema_id, topic, fmt=self._fmt)
            subject = subject_name(topic, self.is_key)
            version = self.registry.version(subject, registered, schema_id, topic)
            pool, proto = self._file(schema_id, registered, topic)
            desc = _message_at(pool, proto, indexes)
            return self._build_message(desc, version)
        except ValueError as exc:
            return _Broken(f"schema id {schema_id} (Protobuf): {exc}")

    def _file(self, schema_id: int, registered: Any, topic: str) -> tuple[Any, Any]:
        found = self._files.get(schema_id)
        if found is not None:
            return found  # type: ignore[no-any-return]
        pool = _well_known_pool()
        added: set[str] = set()

        def add_references(schema: Any) -> None:
            for ref in schema.references or []:
                if str(ref.name).startswith(_BUILTIN_PREFIXES) or ref.name in added:
                    continue
                added.add(ref.name)
                dep = self.registry.referenced(ref.subject, int(ref.version), topic, "serialized")
                add_references(dep.schema)
                _add_file(pool, _file_proto(dep.schema.schema_str, str(ref.name)))

        add_references(registered)
        proto = _file_proto(registered.schema_str, f"s3connect/registry/{schema_id}.proto")
        _add_file(pool, proto)
        self._files[schema_id] = (pool, proto)
        return pool, proto

    def _build_message(self, desc: Any, version: int) -> _Prepared:
        from google.protobuf import message_factory

        schema = protobuf_to_connect_schema(desc, version)
        cls = message_factory.GetMessageClass(desc)
        convert = _proto_message(schema, desc)

        def decode(payload: bytes) -> Any:
            return convert(cls.FromString(payload))

        return _Prepared(schema, decode)


def _add_file(pool: Any, proto: Any) -> Any:
    try:
        pool.Add(proto)
        return pool.FindFileByName(proto.name)
    except Exception as exc:  # unresolved imports, duplicate symbols, invalid descriptors
        raise ValueError(f"the Protobuf schema cannot be loaded: {exc}") from None
