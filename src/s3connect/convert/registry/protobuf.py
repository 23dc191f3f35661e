"""Confluent's ProtobufConverter: ``ProtobufData`` (defaults: all fields optional,
``wrapper.for.raw.primitives=true``).

The registered schema (a serialized descriptor, or ``.proto`` text via
:mod:`~s3connect.convert.registry.proto_parser`) is loaded into a descriptor pool holding the
well-known types and its references; a payload decodes as a dynamic ``google.protobuf``
message. Recursive messages are rejected.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
from collections.abc import Iterable
from typing import Any

from s3connect.connect.json_data import keyed_hashmap
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.connect.variant import VARIANT, VARIANT_SCHEMA
from s3connect.convert.registry.base import (
    Broken,
    Convert,
    Prepared,
    RegistryConverter,
    identity,
)
from s3connect.convert.registry.client import (
    ReadSettings,
    Registry,
    header_schema_id,
    read_message_indexes,
    subject_name,
    wire_header,
)
from s3connect.convert.registry.proto_logical import (
    confluent_decimal,
    google_date,
    google_time_of_day,
    protobuf_timestamp,
)
from s3connect.util.javamath import java_narrow

__all__ = [
    "PROTO_ENUM",
    "PROTO_NS",
    "PROTO_TAG",
    "PROTO_TYPE",
    "PROTO_UNION",
    "ProtobufConverter",
    "protobuf_to_connect_schema",
]


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
        if not (len(o.fields) == 1 and o.fields[0].name in synthetic)  # OneofDescriptor.isSynthetic
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
            t, name, version = Type.BYTES, DECIMAL, 1
            params.update(_decimal_params(field))
        elif full in ("google.type.Date", "google.type.TimeOfDay"):
            t = Type.INT32
            name, version = (DATE if full == "google.type.Date" else TIME), 1
        elif full == "google.protobuf.Timestamp":
            t, name, version = Type.INT64, TIMESTAMP, 1
        elif full == "confluent.type.Variant":  # ConnectVariant.builder()
            t, name, fields = Type.STRUCT, VARIANT, VARIANT_SCHEMA.fields
        elif full in _WRAPPERS:  # wrapper.for.raw.primitives=true, at any depth
            t = _WRAPPERS[full]
        elif _is_map_field(field):
            entry = field.message_type
            t, name = Type.MAP, _map_field_name(entry.name)
            key = _proto_field(entry.fields[0], busy)
            value = _proto_field(entry.fields[1], busy)
        else:
            nested = _proto_struct(field.message_type, None, busy)
            t, name, fields = Type.STRUCT, nested.name, nested.fields
    else:
        raise ValueError("Unknown Connect schema type: GROUP")  # the one type left
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


def _decimal_params(field: Any) -> dict[str, str]:
    """``Decimal.builder(scale)`` and precision from the field's ``confluent.field_meta``."""
    meta = _field_meta_params(field)
    params = {"scale": str(_int_or(meta.get("scale"), 0))}
    precision = _int_or(meta.get("precision"), None)
    if precision is not None:
        params["connect.decimal.precision"] = str(precision)
    return params


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
        key_schema = schema.key_schema
        # ProtobufData puts the entries, in wire order (see _add_file), into a new HashMap<>()
        return lambda v: keyed_hashmap({kc(e.key): vc(e.value) for e in v}, key_schema)
    return _proto_scalar(schema, field)


def _proto_scalar(schema: ConnectSchema, field: Any) -> Convert:
    from google.protobuf.descriptor import FieldDescriptor as F

    ft = field.type
    name = schema.name
    if name == TIMESTAMP:
        return lambda m: protobuf_timestamp(m.seconds, m.nanos)
    if name == DATE:
        return lambda m: google_date(m.year, m.month, m.day)
    if name == TIME:
        return lambda m: google_time_of_day(m.hours, m.minutes, m.seconds, m.nanos)
    if name == DECIMAL:
        return lambda m: confluent_decimal(m.value, m.precision, m.scale)
    if ft == F.TYPE_ENUM:
        enum = field.enum_type
        names: dict[int, str] = {}
        for v in enum.values:  # findValueByNumber: the first of aliases (allow_alias)
            names.setdefault(v.number, v.name)
        unknown = f"UNKNOWN_ENUM_VALUE_{enum.name}_"
        return lambda n: names.get(n) or f"{unknown}{n}"
    if ft in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return lambda n: n - (1 << 64) if n >= (1 << 63) else n
    if schema.type is Type.INT8:  # connect.type=int8: Number.byteValue() wraps
        return lambda n: java_narrow(n, 8)
    if schema.type is Type.INT16:  # Number.shortValue()
        return lambda n: java_narrow(n, 16)
    if ft == F.TYPE_MESSAGE:
        return _proto_message(schema, field.message_type)
    if ft == F.TYPE_BYTES:
        return bytes
    return identity


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

    proto2 = _proto2_file(desc)
    for fd in desc.fields:
        if fd.name in in_oneof:
            continue
        f = schema.field(fd.name)
        assert f is not None
        # ProtobufData.setStructField: a scalar or repeated field is always set, but for an
        # optional one (proto3 optional, or proto2 optional with optional.for.proto2=true,
        # the default): like a message field, set only when present, else null.
        optional = fd.name in synthetic or (
            proto2 and not fd.is_required and not _is_repeated(fd) and fd.containing_oneof is None
        )
        always = (fd.type != F.TYPE_MESSAGE or _is_repeated(fd)) and not optional
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


def _proto2_file(desc: Any) -> bool:
    """Whether the message's file is proto2 (Descriptors' EDITION_PROTO2)."""
    from google.protobuf import descriptor_pb2

    proto = descriptor_pb2.FileDescriptorProto()
    desc.file.CopyToProto(proto)
    return proto.syntax in ("", "proto2")


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
        "confluent_kafka.schema_registry.confluent.type.variant_pb2",
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
        from s3connect.convert.registry.proto_parser import parse_proto

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


class ProtobufConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.protobuf.ProtobufConverter`` (reading)."""

    schema_type = "Protobuf"
    _fmt = "serialized"

    def __init__(
        self, registry: Registry, *, is_key: bool = False, settings: ReadSettings | None = None
    ) -> None:
        super().__init__(registry, is_key=is_key, settings=settings)
        self._files: dict[int, Any] = {}
        self._by_message: dict[tuple[str, int, tuple[int, ...]], Prepared | Broken] = {}

    def to_connect(
        self, topic: str, data: bytes | None, headers: Iterable[tuple[str, bytes | None]] = ()
    ) -> tuple[Any, ConnectSchema | None]:
        """Decode one framed record (magic byte, schema id, message indexes, message)."""
        if data is None:
            return None, None
        try:
            if header_schema_id(headers, self.is_key) is not None:
                raise ValueError(
                    "Error deserializing schema ID: a schema id in the record's headers is not "
                    "read for Protobuf, only one framing the value"
                )
            schema_id = wire_header(data, topic)
            indexes, pos = read_message_indexes(data, 5)
            key = (topic, schema_id, tuple(indexes))
            prepared = self._by_message.get(key)
            if prepared is None:
                prepared = self._prepare_message(topic, schema_id, indexes)
                self._by_message[key] = prepared
            if isinstance(prepared, Broken):
                raise ValueError(prepared.message)
            try:
                return prepared.decode(data[pos:]), prepared.schema
            except Exception as exc:
                raise ValueError(self._message_error(schema_id, exc)) from exc
        except ValueError as exc:
            raise ValueError(f"{self.failed(topic)} {exc}") from exc.__cause__

    def _prepare_message(self, topic: str, schema_id: int, indexes: list[int]) -> Prepared | Broken:
        try:
            registered = self._retrieving("schema", schema_id, self._schema, schema_id, topic)
            subject = subject_name(topic, self.is_key)
            version = self._retrieving(
                "schema version", schema_id, self._version, subject, registered, schema_id, topic
            )
            pool, proto = self._file(schema_id, registered, topic)
            desc = _message_at(pool, proto, indexes)
            return self._build_message(desc, version)
        except ValueError as exc:
            return Broken(str(exc))

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

    def _build_message(self, desc: Any, version: int) -> Prepared:
        from google.protobuf import message_factory

        schema = protobuf_to_connect_schema(desc, version)
        cls = message_factory.GetMessageClass(desc)
        convert = _proto_message(schema, desc)

        def decode(payload: bytes) -> Any:
            return convert(cls.FromString(payload))

        return Prepared(schema, decode)


def _add_file(pool: Any, proto: Any) -> Any:
    """Add a schema's file to ``pool``, its map entries as plain messages: a map field then
    parses as its entries in wire order (Java's DynamicMessage keeps them so; Python's maps do
    not), which decides the order of colliding keys in the HashMap ProtobufData fills."""
    plain = type(proto)()
    plain.CopyFrom(proto)
    stack = list(plain.message_type)
    while stack:
        message = stack.pop()
        message.options.ClearField("map_entry")
        stack.extend(message.nested_type)
    try:
        pool.Add(plain)
        return pool.FindFileByName(plain.name)
    except Exception as exc:  # unresolved imports, duplicate symbols, invalid descriptors
        raise ValueError(f"the Protobuf schema cannot be loaded: {exc}") from None
