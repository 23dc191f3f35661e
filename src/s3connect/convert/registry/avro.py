"""Confluent's AvroConverter: ``AvroData.toConnectSchema`` / ``toConnectData``.

Default settings: ``connect.meta.data=true``, no enhanced schema support, no generalized sum
types. Values are read with fastavro's ``schemaless_reader``.

Known differences (documented in the README): a union holding both ``int`` and ``long`` (or
``float`` and ``double``) picks ``int`` for values in int range (``double`` for floats), as
Python decodes both alike; recursive schemas are rejected (Connect's cyclic schemas have no
equivalent here).
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from s3connect.connect.logical import EPOCH, EPOCH_DAY, bytes_to_decimal
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.registry.base import Convert, Prepared, RegistryConverter, identity

__all__ = [
    "AVRO_ENUM",
    "AVRO_UNION",
    "ENUM_DEFAULT",
    "ENUM_DOC",
    "FIELD_DEFAULT_FLAG",
    "FIELD_DOC",
    "RECORD_DOC",
    "AvroConverter",
    "avro_to_connect_schema",
]

_MISSING: Any = object()

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
            return bytes_to_decimal(raw.encode("latin-1"), int(schema.parameters["scale"]))
        return None
    if schema.name == DATE and isinstance(raw, int):
        return EPOCH_DAY + timedelta(days=raw)
    if schema.name == TIME and isinstance(raw, int):
        return (datetime.min + timedelta(milliseconds=raw)).time()
    if schema.name == TIMESTAMP and isinstance(raw, int):
        return EPOCH + timedelta(milliseconds=raw)
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

        def record(v: Any) -> Any:
            return {n: (v[n] if c is None else c(v[n])) for n, c in convs}

        return record
    if kind == "array":
        assert a.items is not None
        if s.type is Type.MAP:
            assert s.key_schema is not None and s.value_schema is not None
            entry = a.items
            kf = next(f for f in entry.fields if f.name == "key")
            vf = next(f for f in entry.fields if f.name == "value")
            kc = _avro_value(kf.type, s.key_schema, named) or identity
            vc = _avro_value(vf.type, s.value_schema, named) or identity
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


class AvroConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading)."""

    schema_type = "Avro"

    def _build(self, registered: Any, version: int, topic: str) -> Prepared:
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

        return Prepared(schema, decode)

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
