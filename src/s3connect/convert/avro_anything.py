"""Schemaless data in Avro: AvroData's ``io.confluent.connect.avro.Anything`` record.

``AvroData.fromConnectSchema(null)`` is ``ANYTHING_SCHEMA``, a self-referencing record with one
optional field per kind of value (``boolean``, ``bytes``, ``double``, ``float``, ``int``,
``long``, ``string``, ``array`` of Anything, ``map`` as an array of ``MapEntry`` key/value
pairs). ``fromConnectData(null, value)`` sets the one field of the value's Java type
(``schemaTypeForSchemalessJavaType``); a null inside an array or map is a record with no field
set. ``toConnectData`` reads the first field set, in field order, and builds maps as
``new HashMap<>(size)``. This is what Confluent's AvroFormat writes for schemaless values, and
what its AvroConverter registers for them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import fastavro
from fastavro.schema import to_parsing_canonical_form

from s3connect.connect.java_types import java_class
from s3connect.connect.json_data import as_hashmap
from s3connect.util.java_hashmap import sized_capacity

__all__ = ["ANYTHING_SCHEMA_JSON", "PARSED", "anything_datum", "anything_value", "is_anything"]

_OPTIONAL = ("boolean", "bytes", "double", "float", "int", "long", "string")

ANYTHING_SCHEMA_JSON = (
    '{"type":"record","name":"Anything","namespace":"io.confluent.connect.avro","fields":['
    + ",".join(f'{{"name":"{k}","type":["null","{k}"],"default":null}}' for k in _OPTIONAL)
    + ',{"name":"array","type":["null",{"type":"array","items":"Anything"}],"default":null}'
    ',{"name":"map","type":["null",{"type":"array","items":{"type":"record","name":"MapEntry",'
    '"fields":[{"name":"key","type":"Anything"},{"name":"value","type":"Anything"}]}}],'
    '"default":null}]}'
)
"""``ANYTHING_SCHEMA.toString()``, as Avro Java writes it into a container file's header."""

PARSED = fastavro.parse_schema(json.loads(ANYTHING_SCHEMA_JSON))
"""The schema as fastavro encodes and decodes it."""

_CANONICAL = to_parsing_canonical_form(PARSED)


def is_anything(avro: Any) -> bool:
    """Whether an Avro schema (parsed JSON) is AvroData's ``ANYTHING_SCHEMA``."""
    if not isinstance(avro, Mapping) or avro.get("type") != "record":
        return False
    if avro.get("name") not in ("Anything", "io.confluent.connect.avro.Anything"):
        return False
    try:
        return bool(to_parsing_canonical_form(fastavro.parse_schema(dict(avro))) == _CANONICAL)
    except Exception:  # not a schema fastavro reads: certainly not this one
        return False


def anything_datum(value: Any) -> dict[str, Any]:
    """``fromConnectData(null, value)``: the Anything record of a schemaless value (a null
    one: no field set, as AvroData makes an array's or map's null element).

    Raises:
        ValueError: a value of no schemaless Connect type ("Unknown Java type for schemaless
            data", as AvroData's ``DataException``).
    """
    if value is None:
        return {}
    if isinstance(value, bool):
        return {"boolean": value}
    if isinstance(value, int):  # a schemaless integer is a Long
        return {"long": value}
    if isinstance(value, float):
        return {"double": value}
    if isinstance(value, str):
        return {"string": value}
    if isinstance(value, bytes | bytearray | memoryview):
        return {"bytes": bytes(value)}
    if isinstance(value, list | tuple):
        return {"array": [anything_datum(item) for item in value]}
    if isinstance(value, Mapping):
        entries = [{"key": anything_datum(k), "value": anything_datum(v)} for k, v in value.items()]
        return {"map": entries}
    raise ValueError(f"Unknown Java type for schemaless data: class {java_class(value)}")


def anything_value(datum: Mapping[str, Any]) -> Any:
    """``toConnectData(null, datum)``: the schemaless value of an Anything record (fastavro's
    dict), from its first field set; None when none is."""
    for name in _OPTIONAL:
        found = datum.get(name)
        if found is not None:
            return found
    items = datum.get("array")
    if items is not None:
        return [anything_value(item) for item in items]
    entries = datum.get("map")
    if entries is None:
        return None
    out = {anything_value(e["key"]): anything_value(e["value"]) for e in entries}
    long_keys = any(e["key"].get("long") is not None for e in entries)
    try:
        return as_hashmap(out, long=long_keys, initial=sized_capacity(len(entries)))
    except TypeError:  # keys with no modelled hashCode (booleans, doubles): as read
        return out
