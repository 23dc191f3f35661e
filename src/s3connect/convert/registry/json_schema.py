"""Confluent's JsonSchemaConverter: ``JsonSchemaData`` (``generalized.sum.type.support=false``).

Payloads are decoded with ``json`` (floats as ``Decimal``). Known differences (documented in the
README): ``$ref`` resolves within the document and to referenced schemas by name only; recursive
schemas are rejected.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import math
from collections.abc import Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from s3connect.connect.json_data import as_hashmap, keyed_hashmap
from s3connect.connect.logical import EPOCH, EPOCH_DAY, bytes_to_decimal
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.registry.base import Prepared, RegistryConverter

__all__ = ["JSON_ENUM", "JSON_ONE_OF", "JsonSchemaConverter", "json_schema_to_connect"]


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
    redirected = _json_redirect(node, kind, refs, version, optional)
    if redirected is not None:
        return redirected
    connect_type = node.get("connect.type")
    params: dict[str, str] = {}
    fields: tuple[Field, ...] = ()
    key = value = None
    if _is_string_enum(node, kind):
        t = Type.STRING
        params[JSON_ENUM] = ""
        for symbol in node["enum"] if "enum" in node else [node["const"]]:
            text = "<NULL>" if symbol is None else _java_text(symbol)
            params[f"{JSON_ENUM}.{text}"] = text
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
    elif kind in ("array", "object"):
        t, fields, key, value = _json_container(node, kind, refs)
    else:
        raise ValueError(f"Unsupported schema type {dict(node)!r}")
    schema = ConnectSchema(t, fields=fields, key_schema=key, value_schema=value)
    return _json_finish(schema, node, params, version, optional)


def _is_string_enum(node: Mapping[str, Any], kind: str | None) -> bool:
    """An enum, or a ``const`` without a type (everit's ConstSchema: ``toConnectEnums``)."""
    return kind in ("typed-enum", "enum", "const") and (
        node.get("type") in (None, "string") or not isinstance(node.get("type"), str)
    )


def _json_redirect(
    node: Mapping[str, Any],
    kind: str | None,
    refs: _JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema | None:
    """The schema of a node that stands for another: a ``$ref``, a list of types, a combination
    (``oneOf``/``anyOf``/``allOf``), or a ``const``/typed ``enum`` read as its base type."""
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
                rest = {k: v for k, v in node.items() if k not in ("oneOf", "anyOf", "allOf")}
                if _json_kind(rest) is not None:  # everit: a synthetic allOf of both parts
                    part = {criterion: node[criterion]}
                    return _json_all_of(node, [part, rest], refs, version, optional)
                return _json_combined(
                    node, list(node[criterion]), criterion, refs, version, optional
                )
    if kind in ("typed-enum", "typed-const", "const") and not _is_string_enum(node, kind):
        base = node.get("type")
        if kind == "const" or base not in ("string", "integer", "number"):
            raise ValueError(f"Unsupported JSON Schema {dict(node)!r}")
        return _json_schema({k: v for k, v in node.items() if k not in ("enum", "const")}, refs,
                            version, optional)  # fmt: skip
    return None


def _json_container(
    node: Mapping[str, Any], kind: str, refs: _JsonRefs
) -> tuple[Type, tuple[Field, ...], ConnectSchema | None, ConnectSchema | None]:
    """Type, fields, key and value schema of an ``array`` or ``object`` node (a Connect array,
    map or struct)."""
    connect_type = node.get("connect.type")
    if kind == "array":
        items = node.get("items")
        if not isinstance(items, Mapping):
            raise ValueError("Array schema did not specify the items type")
        if connect_type == "map" and _json_kind(items) == "object":
            props = items.get("properties", {})
            return (
                Type.MAP,
                (),
                _json_schema(props.get("key"), refs),
                _json_schema(props.get("value"), refs),
            )
        return Type.ARRAY, (), None, _json_schema(items, refs)
    if connect_type == "map":
        value = _json_schema(node.get("additionalProperties"), refs)
        return Type.MAP, (), ConnectSchema(Type.STRING), value
    ordered: dict[int, tuple[str, Any]] = {}
    for prop, sub in (node.get("properties") or {}).items():
        index = sub.get("connect.index") if isinstance(sub, Mapping) else None
        if not isinstance(index, int) or isinstance(index, bool):
            index = len(ordered)
        ordered[index] = (prop, sub)
    fields = tuple(
        Field(prop, _json_schema(sub, refs)) for _, (prop, sub) in sorted(ordered.items())
    )
    return Type.STRUCT, fields, None, None


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


_UNION_KEPT = ("description", "connect.version", "connect.parameters")
"""What toConnectSchema applies from a oneOf/anyOf node to its union struct."""


def _json_combined(
    node: Mapping[str, Any],
    members: list[Any],
    criterion: str,
    refs: _JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema:
    if len(members) == 1:  # flatten.singleton.unions=true: the member, without version
        return _json_schema(members[0], refs)
    if criterion == "allOf":
        return _json_all_of(node, members, refs, version, optional)

    # A [null, T] pair is T made optional; else a OneOf struct, which keeps the node's
    # description, connect.version and connect.parameters (its name stays OneOf).
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
    kept = {k: node[k] for k in _UNION_KEPT if k in node}
    return _json_finish(schema, kept, {}, version, optional or made_optional)


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
            return bytes_to_decimal(raw, int(schema.parameters.get("scale", "0")))
        raise ValueError("Invalid type for Decimal, underlying representation should be numeric")
    if name in (DATE, TIME, TIMESTAMP):
        if not isinstance(node, int) or isinstance(node, bool):
            raise ValueError(f"Invalid type for {name.rpartition('.')[2]}: {node!r}")
        if name == DATE:
            return EPOCH_DAY + timedelta(days=node)
        if name == TIME:
            return (datetime.min + timedelta(milliseconds=node % 86_400_000)).time()
        return EPOCH + timedelta(milliseconds=node)
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
        return _json_map(schema, node)
    if name == JSON_ONE_OF:
        return _json_one_of(schema, node)
    if not isinstance(node, dict):
        raise ValueError(f"Structs should be encoded as JSON objects, but found {node!r}")
    return {f.name: _json_value(f.schema, node.get(f.name), f.name in node) for f in schema.fields}


def _json_map(schema: ConnectSchema, node: Any) -> dict[Any, Any]:
    """A map: a JSON object for required string keys, else an array of ``{key, value}``
    objects; filled into a ``new HashMap<>()`` as JsonSchemaData does."""
    key_schema, value_schema = schema.key_schema, schema.value_schema
    assert key_schema is not None and value_schema is not None
    if key_schema.type is Type.STRING and not key_schema.optional:
        if not isinstance(node, dict):
            raise ValueError(
                "Maps with string fields should be encoded as JSON objects, but found "
                + type(node).__name__
            )
        # JsonSchemaData fills a new HashMap<>() in the document's order
        return as_hashmap({k: _json_value(value_schema, v) for k, v in node.items()})
    if not isinstance(node, list):
        raise ValueError("Maps with non-string fields should be encoded as JSON array")
    out = {}
    for entry in node:
        if not isinstance(entry, dict) or len(entry) != 2:
            raise ValueError(f"Found invalid map entry: {entry!r}")
        out[_json_value(key_schema, entry.get("key"), "key" in entry)] = _json_value(
            value_schema, entry.get("value"), "value" in entry
        )
    return keyed_hashmap(out, key_schema)


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


def _struct_match(schema: ConnectSchema, node: Any) -> int:
    """JsonSchemaData.matchStructSchema: the properties a struct shares with an object, plus
    those its struct children share with theirs."""
    if schema.type is not Type.STRUCT or not isinstance(node, dict):
        return 0
    shared = {f.name for f in schema.fields} & node.keys()
    return len(shared) + sum(_struct_match(_field_schema(schema, n), node[n]) for n in shared)


def _field_schema(schema: ConnectSchema, name: str) -> ConnectSchema:
    f = schema.field(name)
    assert f is not None
    return f.schema


def _json_one_of(schema: ConnectSchema, node: Any) -> Any:
    """A simple member the value is an instance of, else the struct member sharing the most
    properties (at least one), as JsonSchemaData's STRUCT converter for unions."""
    best, best_count = None, 0
    for index, f in enumerate(schema.fields):
        if _json_matches(f.schema, node):
            best = index
            break
        count = _struct_match(f.schema, node)
        if count > best_count:
            best, best_count = index, count
    if best is None:
        raise ValueError("Did not find matching oneof field for data")
    out: dict[str, Any] = {f.name: None for f in schema.fields}
    chosen = schema.fields[best]
    out[chosen.name] = _json_value(chosen.schema, node)
    return out


_JSON_DECODER = json.JSONDecoder(parse_float=Decimal)


class JsonSchemaConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.json.JsonSchemaConverter`` (reading)."""

    schema_type = "JSON Schema"

    def _build(self, registered: Any, version: int, topic: str) -> Prepared:
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

        return Prepared(schema, decode)
