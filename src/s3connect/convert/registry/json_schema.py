"""Confluent's JsonSchemaConverter: ``JsonSchemaData`` (``generalized.sum.type.support=false``).

Payloads are decoded with ``json`` (floats as ``Decimal``, as Jackson's BigDecimals). A schema is
loaded as everit loads it (:mod:`~s3connect.convert.registry.json_schema_load`); an empty schema
(``{}``, any JSON value) reads as Confluent's Variant (:mod:`s3connect.connect.variant`). Known
differences (documented in the README): ``$ref`` resolves within the document and to referenced
schemas by name only; recursive schemas are rejected.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from s3connect.connect.json_data import (
    LOGICAL_TO_CONNECT,
    PRIMITIVE_TO_CONNECT,
    as_hashmap,
    jackson_base64,
    json_items,
    json_type_name,
    keyed_hashmap,
)
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.connect.variant import VARIANT, VARIANT_SCHEMA, variant_from_json
from s3connect.convert.registry.base import Prepared, RegistryConverter
from s3connect.convert.registry.client import SchemaRef
from s3connect.convert.registry.json_schema_load import (
    COMBINATORS,
    JsonRefs,
    json_kind,
    json_parts,
    json_properties,
    typed_member,
)

__all__ = [
    "JSON_ENUM",
    "JSON_ONE_OF",
    "JsonSchemaConverter",
    "json_schema_to_connect",
    "json_schema_value",
    "parse_payload",
]


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


def _json_schema(
    node: Any, refs: JsonRefs, version: int | None = None, optional: bool = False
) -> ConnectSchema:
    """JsonSchemaData.toConnectSchema(jsonSchema, version, forceOptional)."""
    if node is True:  # everit's TrueSchema, an EmptySchema
        node = {}
    if isinstance(node, bool) or not isinstance(node, Mapping):
        raise ValueError(f"Unsupported schema type {node!r}")
    kind = json_kind(node)
    redirected = _json_redirect(node, kind, refs, version, optional)
    if redirected is not None:
        return redirected
    connect_type = node.get("connect.type")
    params: dict[str, str] = {}
    fields: tuple[Field, ...] = ()
    key = value = None
    if kind == "empty":  # any JSON value: a Variant
        return _json_finish(VARIANT_SCHEMA, node, params, version, optional)
    if kind in ("enum", "const"):
        t = Type.STRING
        params[JSON_ENUM] = ""
        for symbol in node["enum"] if kind == "enum" else [node["const"]]:
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


def _json_redirect(
    node: Mapping[str, Any],
    kind: str,
    refs: JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema | None:
    """The schema of a node that stands for another: a ``$ref``, a list of types, a combination
    (``oneOf``/``anyOf``/``allOf``) or a synthetic ``allOf`` (everit's, of the node's parts)."""
    if kind == "ref":
        ref = str(node["$ref"])
        if id(node) in refs.busy:
            raise ValueError(f"recursive JSON Schemas are not supported ($ref {ref!r})")
        refs.busy.append(id(node))
        try:
            return _json_schema(refs.resolve(ref), refs, version, optional)
        finally:
            refs.busy.pop()
    if kind == "synthetic":
        return _json_all_of(node, json_parts(node), refs, version, optional)
    if kind == "multi":
        members = [typed_member(node, t) for t in node["type"]]
        return _json_combined(node, members, "anyOf", refs, version, optional)
    if kind == "combined":
        criterion = next(c for c in COMBINATORS if c in node)
        return _json_combined(node, list(node[criterion]), criterion, refs, version, optional)
    return None


def _json_container(
    node: Mapping[str, Any], kind: str, refs: JsonRefs
) -> tuple[Type, tuple[Field, ...], ConnectSchema | None, ConnectSchema | None]:
    """Type, fields, key and value schema of an ``array`` or ``object`` node (a Connect array,
    map or struct)."""
    connect_type = node.get("connect.type")
    if kind == "array":
        items = node.get("items")
        if items is not True and not isinstance(items, Mapping):
            raise ValueError("Array schema did not specify the items type")
        if connect_type == "map" and isinstance(items, Mapping) and json_kind(items) == "object":
            props = dict(json_properties(items))
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
    for prop, sub in json_properties(node):
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
        raw = node["default"]  # a schema parsed with floats: read as the decoder reads them
        default = json_schema_value(schema, Decimal(repr(raw)) if type(raw) is float else raw)
        if default is None or schema.type is Type.STRUCT:
            # SchemaBuilder.defaultValue: null for a required schema, or a Struct whose schema
            # is not the builder ("Struct schemas do not match")
            raise ValueError("Invalid default value")
        schema = dataclasses.replace(schema, default=default)
    if optional:
        schema = dataclasses.replace(schema, optional=True)
    return schema


_UNION_KEPT = ("description", "connect.version", "connect.parameters", "default")
"""What toConnectSchema applies from a oneOf/anyOf node to its union struct."""


def _is_null(member: Any) -> bool:
    """everit's NullSchema: ``"type": "null"`` and nothing else that makes a schema part."""
    return isinstance(member, Mapping) and member.get("type") == "null" and (
        json_kind(member) == "null")  # fmt: skip


def _json_combined(
    node: Mapping[str, Any],
    members: list[Any],
    criterion: str,
    refs: JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema:
    if len(members) == 1:  # flatten.singleton.unions=true: the member, without version
        return _json_schema(members[0], refs)
    if criterion == "allOf":
        return _json_all_of(node, members, refs, version, optional)
    # A [null, T] pair is T made optional; else a OneOf struct, which keeps the node's
    # description, connect.version and connect.parameters (its name stays OneOf).
    if len(members) == 2 and any(_is_null(m) for m in members):
        other = next((m for m in members if not _is_null(m)), None)
        return _json_schema(other, refs, version, True)
    out: list[Field] = []
    made_optional = False
    for m in members:
        if _is_null(m):
            made_optional = True
            continue
        name = f"{JSON_ONE_OF}.field.{len(out)}"
        out.append(Field(name, _json_schema(m, refs, None, True)))
    schema = ConnectSchema(Type.STRUCT, name=JSON_ONE_OF, fields=tuple(out))
    kept = {k: node[k] for k in _UNION_KEPT if k in node}
    return _json_finish(schema, kept, {}, version, optional or made_optional)


def _json_all_of(
    node: Mapping[str, Any],
    members: list[Any],
    refs: JsonRefs,
    version: int | None,
    optional: bool,
) -> ConnectSchema:
    """JsonSchemaData.allOfToConnectSchema: the members' object properties as a struct; else
    the last combination; else a string or number beside a const or enum (the enum with a
    string), a number or formatted string beside a string with ``format``, or a ``$ref``."""
    found: dict[str, Any] = {}
    for m in members:
        kind = json_kind(m) if isinstance(m, Mapping) else None
        if kind in ("synthetic", "combined", "multi"):
            kind = "combined"
        elif kind == "integer":
            kind = "number"
        found[str(kind)] = m
    properties = _all_of_properties(members, refs)
    if properties:
        fields = tuple(Field(p, _json_schema(s, refs)) for p, s in properties.items())
        schema = ConnectSchema(Type.STRUCT, fields=fields)
        return dataclasses.replace(schema, optional=True) if optional else schema
    string, number = found.get("string"), found.get("number")
    chosen = found.get("combined")
    if chosen is None and "const" in found:
        chosen = string if string is not None else number
    elif chosen is None and "enum" in found:
        chosen = found["enum"] if string is not None else number
    elif chosen is None and string is not None and "format" in string:
        chosen = number if number is not None else string
    elif chosen is None:
        chosen = found.get("ref")
    if chosen is None:
        raise ValueError(f"Unsupported criterion allOf for {dict(node)!r}")
    return _json_schema(chosen, refs, version, optional)


def _all_of_properties(members: list[Any], refs: JsonRefs) -> dict[str, Any]:
    """JsonSchemaData.collectPropertySchemas over the members: the properties of objects,
    of nested ``allOf`` members and of referenced schemas."""
    properties: dict[str, Any] = {}
    seen: set[int] = set()

    def collect(m: Any) -> None:
        if not isinstance(m, Mapping) or id(m) in seen:
            return
        seen.add(id(m))
        kind = json_kind(m)
        if kind == "ref":
            collect(refs.resolve(str(m["$ref"])))
        elif kind == "synthetic":
            for part in json_parts(m):
                collect(part)
        elif kind == "combined" and "allOf" in m:
            for sub in m["allOf"]:
                collect(sub)
        elif kind == "object":
            properties.update(json_properties(m))

    for m in members:
        collect(m)
    return properties


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
        ValueError: a schema JsonSchemaData rejects (e.g. ``"type": "null"``; ``{}``, any
            JSON value, is a Variant).
    """
    return _json_schema(node, JsonRefs(node, documents or {}), version)


def json_schema_value(schema: ConnectSchema, node: Any, present: bool = True) -> Any:
    """JsonSchemaData.toConnectData(schema, jsonValue): ``node`` is parsed JSON with decimal
    numbers as ``Decimal`` (Jackson's BigDecimals); ``present=False``: a missing field.

    Raises:
        ValueError: a value JsonSchemaData rejects (the message is Confluent's).
    """
    if not present or node is None:
        if schema.default is not None:
            return schema.default
        if not present or schema.optional:
            return None
        raise ValueError(f"Invalid null value for required {schema.type.name} field")
    if schema.name in LOGICAL_TO_CONNECT:
        return LOGICAL_TO_CONNECT[schema.name](schema, node)
    if schema.name == VARIANT:
        return variant_from_json(node)
    t = schema.type
    if t is Type.BYTES:
        return _bytes_value(node)
    if node.__class__ is float and t in (Type.FLOAT32, Type.FLOAT64):
        return node  # NaN or an infinity (Jackson's DoubleNode)
    if t in PRIMITIVE_TO_CONNECT:
        return PRIMITIVE_TO_CONNECT[t](node)
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [json_schema_value(schema.value_schema, v) for v in json_items(node)]
    if t is Type.MAP:
        return _json_map(schema, node)
    if schema.name == JSON_ONE_OF:
        return _json_one_of(schema, node)
    if not isinstance(node, dict):
        raise ValueError(
            f"Structs should be encoded as JSON objects, but found {json_type_name(node)}"
        )
    return {f.name: json_schema_value(f.schema, node.get(f.name), f.name in node)
            for f in schema.fields}  # fmt: skip


def _bytes_value(node: Any) -> bytes | Decimal:
    """``binaryValue()``, else ``decimalValue()`` (a Decimal's number; 0 for other nodes)."""
    if isinstance(node, str):
        try:
            return jackson_base64(node)
        except ValueError as exc:
            raise ValueError("Invalid bytes field") from exc
    if node.__class__ is int or node.__class__ is Decimal:
        return Decimal(node)
    return Decimal(0)


def _json_map(schema: ConnectSchema, node: Any) -> dict[Any, Any]:
    """A map: a JSON object for required string keys, else an array of ``{key, value}``
    objects; filled into a ``new HashMap<>()`` as JsonSchemaData does."""
    key_schema, value_schema = schema.key_schema, schema.value_schema
    assert key_schema is not None and value_schema is not None
    if key_schema.type is Type.STRING and not key_schema.optional:
        if not isinstance(node, dict):
            raise ValueError(
                "Maps with string fields should be encoded as JSON objects, but found "
                + json_type_name(node)
            )
        return as_hashmap({k: json_schema_value(value_schema, v) for k, v in node.items()})
    if not isinstance(node, list):
        raise ValueError(
            "Maps with non-string fields should be encoded as JSON array of objects, but found "
            + json_type_name(node)
        )
    out = {}
    for entry in node:
        if not isinstance(entry, dict):
            raise ValueError(f"Found invalid map entry instead of object: {json_type_name(entry)}")
        if len(entry) != 2:
            raise ValueError(f"Found invalid map entry, expected length 2 but found :{len(entry)}")
        out[json_schema_value(key_schema, entry.get("key"), "key" in entry)] = json_schema_value(
            value_schema, entry.get("value"), "value" in entry
        )
    return keyed_hashmap(out, key_schema)


def _json_matches(schema: ConnectSchema, node: Any) -> bool:
    """JsonSchemaData.isInstanceOfSchemaTypeForSimpleSchema."""
    t = schema.type
    if t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64):
        return node.__class__ is int
    if t in (Type.FLOAT32, Type.FLOAT64):
        return node.__class__ in (int, Decimal, float)
    if t is Type.BOOLEAN:
        return isinstance(node, bool)
    if t is Type.STRING:
        return isinstance(node, str)
    if t is Type.BYTES:
        return node.__class__ is Decimal
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
    out[chosen.name] = json_schema_value(chosen.schema, node)
    return out


_JSON_DECODER = json.JSONDecoder(parse_float=Decimal)


def parse_payload(text: str) -> Any:
    """The JSON value the deserializer's Jackson reads: decimal numbers as ``Decimal``,
    ``NaN``/``Infinity`` as floats (``ALLOW_NON_NUMERIC_NUMBERS``), anything after the first
    value ignored (``FAIL_ON_TRAILING_TOKENS`` is off).

    Raises:
        ValueError: no JSON value.
    """
    return _JSON_DECODER.raw_decode(text.lstrip(" \t\n\r"))[0]


class JsonSchemaConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.json.JsonSchemaConverter`` (reading)."""

    schema_type = "JSON Schema"
    failure = (
        "Converting byte[] to Kafka Connect data failed due to serialization error of topic "
        "{topic}:"
    )

    def _build(
        self, registered: Any, version: int, topic: str, latest: Any, schema_id: SchemaRef
    ) -> Prepared:
        try:
            root = _JSON_DECODER.decode(registered.schema_str)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the registered schema is not JSON: {exc}") from None
        documents: dict[str, Any] = {}
        for ref in registered.references or []:
            found = self.registry.referenced(ref.subject, int(ref.version), topic)
            documents[str(ref.name)] = _JSON_DECODER.decode(found.schema.schema_str)
        schema = json_schema_to_connect(root, version, documents)

        def decode(data: bytes) -> Any:
            try:
                node = parse_payload(data[5:].decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise ValueError(f"the payload is not JSON: {exc}") from None
            return json_schema_value(schema, node)

        return Prepared(schema, decode)
