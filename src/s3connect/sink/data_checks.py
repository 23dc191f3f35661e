"""The record-level failures of Confluent's AvroData, checked before a record joins a file.

Confluent's Avro and Parquet record writers convert each record as it is written
(``AvroData.fromConnectData``); a value that does not fit its schema there throws a
``DataException``, which the ``TopicPartitionWriter`` reports as an errant record, and the record
joins no file. Ours convert whole files when they are committed, so the writer asks
:class:`AvroDataChecks` first, record by record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.schema import ConnectSchema, Type

__all__ = ["AvroDataChecks", "avro_data_problem"]

Check = Callable[[Any], str | None]

_NULL = "Found null value for non-optional schema"
_NESTED = (Type.STRUCT, Type.ARRAY, Type.MAP)


def avro_data_problem(schema: ConnectSchema, value: Any) -> str | None:
    """The ``DataException`` message ``AvroData.fromConnectData(schema, value)`` throws, or None.

    Those are a null for a required schema (a struct's field: without a default) ("Found null
    value for non-optional schema") and a value of a struct schema that is not a struct
    ("Invalid type for STRUCT: class ..."), at any depth, the first in field order. Other
    mismatches are ``ClassCastException``\\ s there, which fail the task: here the file's
    write fails.
    """
    return _compile(schema)(value)


class AvroDataChecks:
    """:func:`avro_data_problem`, compiled for the last schema seen (records share schema
    objects, as the converters hand them out)."""

    def __init__(self) -> None:
        self._schema: ConnectSchema | None = None
        self._check: Check = _nothing

    def __call__(self, schema: ConnectSchema, value: Any) -> str | None:
        if schema is not self._schema:
            self._schema, self._check = schema, _compile(schema)
        return self._check(value)


def _nothing(value: Any) -> None:
    return None


def _nullable(schema: ConnectSchema, field: bool) -> bool:
    """Whether a null passes: an optional schema's, or a struct field's with a default (which
    ``Struct.get`` returns in its place; elsewhere a default does not stand in for a null)."""
    return schema.optional or (field and schema.default is not None)


def _compile(schema: ConnectSchema, field: bool = False) -> Check:
    """The check of a value of ``schema`` (null or not; a struct's ``field``)."""
    inner = _compile_value(schema)
    if _nullable(schema, field):
        return _nothing if inner is None else lambda v: None if v is None else inner(v)
    if inner is None:
        return lambda v: _NULL if v is None else None
    return lambda v: _NULL if v is None else inner(v)


def _compile_value(schema: ConnectSchema) -> Check | None:
    """The check of a non-null value of ``schema``; None when nothing can fail."""
    kind, key, item = schema.type, schema.key_schema, schema.value_schema
    if kind is Type.STRUCT:
        return _struct_check(schema)
    if kind is Type.ARRAY and item is not None and _can_fail(item):
        check_item = _compile(item)
        return lambda v: _first(check_item, v) if isinstance(v, list | tuple) else None
    if kind is Type.MAP and key is not None and item is not None:
        if not (_can_fail(key) or _can_fail(item)):
            return None
        check_key, check_value = _compile(key), _compile(item)
        return lambda v: (
            _first(check_key, v.keys()) or _first(check_value, v.values())
            if isinstance(v, Mapping)
            else None
        )
    return None


def _can_fail(schema: ConnectSchema, field: bool = False) -> bool:
    """Whether some value of ``schema`` has a problem (a null, or something inside)."""
    return schema.type in _NESTED or not _nullable(schema, field)


def _struct_check(schema: ConnectSchema) -> Check:
    """A struct's: a mapping, then its fields that can fail, in order (a required primitive's
    check is only its null check, inlined: ``None`` in place of a check)."""
    fields = [
        (f.name, _compile(f.schema, field=True) if f.schema.type in _NESTED else None)
        for f in schema.fields
        if _can_fail(f.schema, field=True)
    ]

    def check(value: Any) -> str | None:
        if type(value) is not dict and not isinstance(value, Mapping):  # dict: the usual, quick
            return f"Invalid type for STRUCT: class {java_class(value)}"
        get = value.get
        for name, sub in fields:
            item = get(name)
            if sub is None:
                if item is None:
                    return _NULL
            elif (problem := sub(item)) is not None:
                return problem
        return None

    return check


def _first(check: Check, values: Any) -> str | None:
    """The first of ``values``' problems, or None."""
    for item in values:
        problem = check(item)
        if problem is not None:
            return problem
    return None
