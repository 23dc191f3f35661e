"""Kafka Connect's ``SchemaProjector``: a value of one schema as a value of a compatible schema.

``schema.compatibility`` BACKWARD, FORWARD and FULL write the records of one file with the file's
schema; a record with another (compatible) version of that schema is *projected* onto it, as
Confluent's ``StorageSchemaCompatibility.project`` does with the ``SchemaProjector`` of
kafka-connect-storage-common (``io.confluent.connect.storage.schema.SchemaProjector``, itself
``org.apache.kafka.connect.data.SchemaProjector`` with metadata parameters ignored):

* at every level the source and target must have the same type, or a numeric type that widens
  (``int8 -> int16 -> int32 -> int64 -> float -> double``), the same name, and the same
  parameters (``connect.record.doc``/``aliases``/``namespace`` and Avro field docs ignored; for an
  enum the source's symbols must be a subset of the target's);
* an optional source onto a required target needs a target default (used for null);
* struct: the target's fields, in its order; a field missing from the source takes the target
  field's default, else null when optional, else the projection fails; source fields the target
  lacks are dropped;
* array elements, map keys and map values are projected one by one;
* a null struct field value reads as its schema's default first (Connect's ``Struct.get``).

Checks happen exactly where Java runs them, i.e. as values are visited: an incompatible element
schema of an empty array, or a field of a null struct, never fails. Projections are compiled once
per pair of schemas.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Mapping
from typing import Any

from s3connect.connect.java_types import schema_text
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import SchemaProjectionError

__all__ = [
    "ENUM_PARAMETERS",
    "compatibility_parameters",
    "describe",
    "is_enum",
    "is_promotable",
    "parameters_differ",
    "project_record",
    "project_value",
]

_NUMERIC = (Type.INT8, Type.INT16, Type.INT32, Type.INT64, Type.FLOAT32, Type.FLOAT64)
_PROMOTABLE = frozenset(
    (_NUMERIC[i], _NUMERIC[j]) for i in range(len(_NUMERIC)) for j in range(i, len(_NUMERIC))
)
_INTEGERS = frozenset(_NUMERIC[:4])
_METADATA_PARAMETERS = frozenset(
    ("connect.record.doc", "connect.record.aliases", "connect.record.namespace")
)
_FIELD_DOC_PREFIX = "io.confluent.connect.avro.field.doc."
ENUM_PARAMETERS = (
    "org.apache.kafka.connect.data.Enum",  # AvroData.GENERALIZED_TYPE_ENUM (ConnectEnum)
    "io.confluent.connect.avro.Enum",  # AvroData.AVRO_TYPE_ENUM
    "io.confluent.connect.protobuf.Enum",  # ProtobufData.PROTOBUF_TYPE_ENUM
)
"""Parameters marking a Connect STRING schema as an enum (its symbols are more parameters)."""


def is_promotable(source: Type, target: Type) -> bool:
    """Whether ``source`` values widen to ``target`` (equal numeric types included)."""
    return (source, target) in _PROMOTABLE


def compatibility_parameters(schema: ConnectSchema) -> dict[str, str]:
    """The schema's parameters without the documentation ones (``filterMetadataParameters``)."""
    return {
        k: v
        for k, v in schema.parameters.items()
        if k not in _METADATA_PARAMETERS and not k.startswith(_FIELD_DOC_PREFIX)
    }


def is_enum(schema: ConnectSchema) -> bool:
    """Whether the schema is an enum (``SchemaProjector.isEnumSchema``)."""
    return any(p in schema.parameters for p in ENUM_PARAMETERS)


def parameters_differ(source: ConnectSchema, target: ConnectSchema) -> bool:
    """Whether the parameters forbid projecting ``source`` onto ``target``: metadata ignored,
    an enum's symbols a subset of the target's, any other parameters equal."""
    src, tgt = compatibility_parameters(source), compatibility_parameters(target)
    if is_enum(source) and is_enum(target):
        return any(tgt.get(k, _MISSING) != v for k, v in src.items())
    return src != tgt


def project_record(record: SinkRecord, target: ConnectSchema) -> SinkRecord:
    """``record`` with its value projected onto ``target`` (the record itself when its value
    schema already equals ``target``).

    Raises:
        SchemaProjectionError: the value cannot be projected (names topic, partition, offset).
    """
    source = record.value_schema
    if source is target or source == target:
        return record
    if source is None:
        raise SchemaProjectionError(
            f"cannot project a schemaless value onto schema {describe(target)}",
            topic=record.topic,
            partition=record.partition,
            offset=record.offset,
        )
    value = project_value(
        source, record.value, target, topic=record.topic, partition=record.partition,
        offset=record.offset,
    )  # fmt: skip
    return record.new_record(  # StorageSchemaCompatibility.project's newRecord
        record.topic, record.partition, record.key_schema, record.key, target, value,
        record.timestamp,
    )  # fmt: skip


def project_value(
    source: ConnectSchema,
    value: Any,
    target: ConnectSchema,
    *,
    topic: str,
    partition: int,
    offset: int,
) -> Any:
    """``SchemaProjector.project(source, value, target)``.

    Raises:
        SchemaProjectionError: the value cannot be projected; the message says where and why.
    """
    try:
        return _projector(source, target)(value)
    except _Mismatch as e:
        where = f" at {e.path}" if e.path else ""
        raise SchemaProjectionError(
            f"cannot project a value of schema {describe(source)} onto schema "
            f"{describe(target)}{where}: {e.reason}",
            topic=topic,
            partition=partition,
            offset=offset,
        ) from None


def describe(schema: ConnectSchema) -> str:
    """A short human description: name (or type) and version."""
    label = repr(schema.name) if schema.name is not None else schema.type.name
    return label if schema.version is None else f"{label} version {schema.version}"


# ---------------------------------------------------------------------------------------------
# Compiled projections

_MISSING = object()
_Convert = Callable[[Any], Any]
_CACHE: dict[tuple[int, int], tuple[ConnectSchema, ConnectSchema, _Convert]] = {}
_CACHE_SIZE = 256


class _Mismatch(Exception):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


def _projector(source: ConnectSchema, target: ConnectSchema) -> _Convert:
    key = (id(source), id(target))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is source and hit[1] is target:
        return hit[2]
    convert = _compile(source, target, "")
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = (source, target, convert)  # the schemas are kept so their ids stay unique
    return convert


def _fail(path: str, reason: str) -> _Convert:
    def fail(_value: Any) -> Any:
        raise _Mismatch(path, reason)

    return fail


def _mismatch(source: ConnectSchema, target: ConnectSchema) -> str | None:
    """``checkMaybeCompatible``: why ``source`` cannot be projected onto ``target``, if so."""
    if source.type is not target.type and not is_promotable(source.type, target.type):
        return (
            f"Schema type mismatch. source type: {source.type.name} and target type: "
            f"{target.type.name}"
        )
    if source.name != target.name:
        src, tgt = _java_text(source.name), _java_text(target.name)
        return f"Schema name mismatch. source name: {src} and target name: {tgt}"
    # Java compares parameters only when both schemas have some (null when none were set).
    if source.parameters and target.parameters and parameters_differ(source, target):
        if is_enum(source) and is_enum(target):
            return (
                f"Schema parameters mismatch. Source parameter: {dict(source.parameters)} is "
                f"not a subset of target parameters: {dict(target.parameters)}"
            )
        return (
            f"Schema parameters not equal. source parameters: {dict(source.parameters)} and "
            f"target parameters: {dict(target.parameters)}"
        )
    return None


def _java_text(name: str | None) -> str:
    return "null" if name is None else name


def _compile(source: ConnectSchema, target: ConnectSchema, path: str) -> _Convert:
    """``SchemaProjector.project`` for one pair of schemas, as a function of the value."""
    problem = _mismatch(source, target)
    if problem is not None:
        return _fail(path, problem)
    inner = _compile_required(source, target, path)
    if source.optional and not target.optional:
        if target.default is None:
            return _fail(
                path,
                "Writer schema is optional, however, target schema does not provide a default "
                "value.",
            )
        default = target.default
        return lambda value: default if value is None else inner(value)
    return lambda value: None if value is None else inner(value)


def _compile_required(source: ConnectSchema, target: ConnectSchema, path: str) -> _Convert:
    """``projectRequiredSchema``: the projection of a non-null value."""
    t = target.type
    if t is Type.STRUCT:
        return _compile_struct(source, target, path)
    if t is Type.ARRAY:
        return _compile_array(source, target, path)
    if t is Type.MAP:
        return _compile_map(source, target, path)
    return _primitive(source.type, t)


def _compile_struct(source: ConnectSchema, target: ConnectSchema, path: str) -> _Convert:
    by_name = {f.name: f for f in source.fields}
    # (name, project, default): project the source field's value (a null reads as the source
    # field's default, as Connect's Struct.get), or, with no project, the constant default.
    plan: list[tuple[str, _Convert | None, Any]] = []
    for tf in target.fields:
        sf = by_name.get(tf.name)
        if sf is not None:
            field_path = f"{path}.{tf.name}" if path else tf.name
            plan.append((tf.name, _compile(sf.schema, tf.schema, field_path), sf.schema.default))
        elif tf.schema.default is not None or tf.schema.optional:
            plan.append((tf.name, None, tf.schema.default))
        else:
            reason = (
                f"Required field `{tf.name}` is missing from source schema: {schema_text(source)}"
            )
            plan.append((tf.name, _fail(path, reason), _MISSING))

    def convert(value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise _Mismatch(path, f"expected a struct value, got {type(value).__name__}")
        out = {}
        get = value.get
        for name, project, default in plan:
            if project is None:
                out[name] = default
            else:
                item = get(name)
                out[name] = project(default if item is None else item)
        return out

    return convert


def _compile_array(source: ConnectSchema, target: ConnectSchema, path: str) -> _Convert:
    assert source.value_schema is not None and target.value_schema is not None
    item = _compile(source.value_schema, target.value_schema, f"{path}[]")
    return lambda value: [item(v) for v in value]


def _compile_map(source: ConnectSchema, target: ConnectSchema, path: str) -> _Convert:
    assert source.key_schema is not None and target.key_schema is not None
    assert source.value_schema is not None and target.value_schema is not None
    key = _compile(source.key_schema, target.key_schema, f"{path}{{key}}")
    item = _compile(source.value_schema, target.value_schema, f"{path}{{value}}")
    return lambda value: {key(k): item(v) for k, v in value.items()}


def _primitive(source: Type, target: Type) -> _Convert:
    """``projectPrimitive``: numbers widen as Java's ``Number.xxxValue()``; others unchanged."""
    if source is target or (source in _INTEGERS and target in _INTEGERS):
        return _same
    if target is Type.FLOAT64:
        # A FLOAT32 value is a Java float: widen the float, not the text it was parsed from.
        return _f32_to_f64 if source is Type.FLOAT32 else _to_f64
    if target is Type.FLOAT32:
        return _to_f32
    return _same  # not promotable: checkMaybeCompatible has already failed


def _same(value: Any) -> Any:
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _to_f64(value: Any) -> Any:
    return float(value) if _is_number(value) else value


def _f32_to_f64(value: Any) -> Any:
    return _round_f32(float(value)) if _is_number(value) else value


def _to_f32(value: Any) -> Any:
    if not _is_number(value):
        return value
    if isinstance(value, int) and abs(value) > 1 << 53:
        return _int_to_f32(value)
    return _round_f32(float(value))


def _round_f32(value: float) -> float:
    """The nearest IEEE single (ties to even), as a Python float; overflow gives infinity."""
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def _int_to_f32(value: int) -> float:
    """Java's ``(float) long``: one correct rounding to 24 significant bits (no double step)."""
    magnitude = abs(value)
    shift = magnitude.bit_length() - 24
    q, r = divmod(magnitude, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return math.copysign(float(q << shift), value)
