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
from s3connect.connect.logical import decimal_unscaled
from s3connect.connect.schema import DECIMAL, ConnectSchema, Type

__all__ = ["AvroDataChecks", "avro_data_problem", "decimal_problem"]

Check = Callable[[Any], str | None]

_NULL = "Found null value for non-optional schema"
_NESTED = (Type.STRUCT, Type.ARRAY, Type.MAP)


def avro_data_problem(schema: ConnectSchema, value: Any) -> str | None:
    """The ``DataException`` message ``AvroData.fromConnectData(schema, value)`` throws, or None.

    Those are a null for a required schema (a struct's field: without a default) ("Found null
    value for non-optional schema"), a value of a struct schema that is not a struct ("Invalid
    type for STRUCT: class ..."), and a decimal at another scale than its schema's (Connect's
    ``Decimal.fromLogical``: a JSON number read by JsonConverter keeps its own scale), at any
    depth, the first in field order. Other mismatches are ``ClassCastException``\\ s there,
    which fail the task: here the file's write fails.
    """
    return _Compiler(decimals_only=False).compile(schema)(value)


def decimal_problem(schema: ConnectSchema, value: Any) -> str | None:
    """The decimals' part of :func:`avro_data_problem` alone: what ``JsonConverter.fromConnectData``
    (JsonFormat, ``json.decimal.format=BASE64``) throws for a decimal at another scale."""
    return _Compiler(decimals_only=True).compile(schema)(value)


class AvroDataChecks:
    """:func:`avro_data_problem` (or :func:`decimal_problem` with ``decimals_only``), compiled
    for the last schema seen (records share schema objects, as the converters hand them out)."""

    def __init__(self, *, decimals_only: bool = False) -> None:
        self._compiler = _Compiler(decimals_only)
        self._schema: ConnectSchema | None = None
        self._check: Check = _nothing

    def __call__(self, schema: ConnectSchema, value: Any) -> str | None:
        if schema is not self._schema:
            self._schema, self._check = schema, self._compiler.compile(schema)
        return self._check(value)


def _nothing(value: Any) -> None:
    return None


def _is_decimal(schema: ConnectSchema) -> bool:
    return schema.name == DECIMAL and schema.type is Type.BYTES


def _decimal_check(schema: ConnectSchema) -> Check:
    def check(value: Any) -> str | None:
        try:
            decimal_unscaled(schema, value)
        except ValueError as exc:
            return str(exc)
        return None

    return check


class _Compiler:
    """Compiles the checks of a schema: every check, or (``decimals_only``) the decimals'."""

    def __init__(self, decimals_only: bool) -> None:
        self.decimals_only = decimals_only

    def nullable(self, schema: ConnectSchema, field: bool) -> bool:
        """Whether a null passes: an optional schema's, or a struct field's with a default
        (which ``Struct.get`` returns in its place; elsewhere a default does not stand in for a
        null); always with ``decimals_only``."""
        return self.decimals_only or schema.optional or (field and schema.default is not None)

    def compile(self, schema: ConnectSchema, field: bool = False) -> Check:
        """The check of a value of ``schema`` (null or not; a struct's ``field``)."""
        inner = self.compile_value(schema)
        if self.nullable(schema, field):
            return _nothing if inner is None else lambda v: None if v is None else inner(v)
        if inner is None:
            return lambda v: _NULL if v is None else None
        return lambda v: _NULL if v is None else inner(v)

    def compile_value(self, schema: ConnectSchema) -> Check | None:
        """The check of a non-null value of ``schema``; None when nothing can fail."""
        kind, key, item = schema.type, schema.key_schema, schema.value_schema
        if _is_decimal(schema):
            return _decimal_check(schema)
        if kind is Type.STRUCT:
            return self.struct_check(schema)
        if kind is Type.ARRAY and item is not None and self.can_fail(item):
            check_item = self.compile(item)
            return lambda v: _first(check_item, v) if isinstance(v, list | tuple) else None
        if kind is Type.MAP and key is not None and item is not None:
            if not (self.can_fail(key) or self.can_fail(item)):
                return None
            check_key, check_value = self.compile(key), self.compile(item)
            return lambda v: (
                _first(check_key, v.keys()) or _first(check_value, v.values())
                if isinstance(v, Mapping)
                else None
            )
        return None

    def can_fail(self, schema: ConnectSchema, field: bool = False) -> bool:
        """Whether some value of ``schema`` has a problem (a null, or something inside)."""
        return self._deep(schema) or not self.nullable(schema, field)

    def struct_check(self, schema: ConnectSchema) -> Check:
        """A struct's: a mapping (unless ``decimals_only``), then its fields that can fail, in
        order (a required primitive's check is only its null check, inlined: ``None`` in place
        of a check)."""
        fields = [
            (f.name, self.compile(f.schema, field=True) if self._deep(f.schema) else None)
            for f in schema.fields
            if self.can_fail(f.schema, field=True)
        ]
        loose = self.decimals_only

        def check(value: Any) -> str | None:
            if type(value) is not dict and not isinstance(value, Mapping):  # dict: the usual
                return None if loose else f"Invalid type for STRUCT: class {java_class(value)}"
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

    @staticmethod
    def _deep(schema: ConnectSchema) -> bool:
        return schema.type in _NESTED or _is_decimal(schema)


def _first(check: Check, values: Any) -> str | None:
    """The first of ``values``' problems, or None."""
    for item in values:
        problem = check(item)
        if problem is not None:
            return problem
    return None
