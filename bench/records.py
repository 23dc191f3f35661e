"""The sink bench's records (``bench/run.py --record``): what each kind is in Kafka, how
s3connect reads it, and how Spark's own decoding file sink reads the same bytes.

- ``bench``: JSON with a Connect schema envelope, 5 fields (id, user, amount, tags, body).
- ``wide``: JSON with a Connect schema envelope, 22 fields of mixed types: int8/16/32/64, float
  and double, boolean, strings, optional fields (null in some records), Timestamp and Date, bytes
  (base64 in JSON), arrays, a map, a struct nested in a struct.
- ``registry``: the ``wide`` record as Avro in Confluent's wire format (magic byte, registry id,
  the datum), its schema registered in the stack's Schema Registry; s3connect reads it with
  ``AvroConverter``, Spark with ``from_avro`` of the bytes after the 5-byte prefix.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["RECORDS", "RecordKind"]

_LOREM = "lorem ipsum dolor sit amet " * 64


@dataclass(frozen=True)
class RecordKind:
    """One kind of bench record."""

    name: str
    converter: Callable[[str], dict[str, str]]
    """s3connect's value converter keys (given the registry URL)."""
    decode: Callable[[Any], Any]
    """Spark's decoding of the Kafka rows' ``value``: a DataFrame of one struct column ``p``."""


def bench_payload(i: int, record_bytes: int) -> bytes:
    """The ``bench`` record: a JSON envelope of ``record_bytes`` bytes."""
    schema = {
        "type": "struct",
        "name": "bench.Event",
        "optional": False,
        "fields": [
            {"field": "id", "type": "int64", "optional": False},
            {"field": "user", "type": "string", "optional": False},
            {"field": "amount", "type": "double", "optional": False},
            {"field": "tags", "type": "array", "items": {"type": "string"}, "optional": False},
            {"field": "body", "type": "string", "optional": False},
        ],
    }
    value = {
        "id": i,
        "user": f"user-{i % 1000}",
        "amount": i * 0.25,
        "tags": ["a", "b", f"t{i % 10}"],
        "body": "",
    }
    base = len(json.dumps({"schema": schema, "payload": value}, separators=(",", ":")))
    value["body"] = _LOREM[: max(0, record_bytes - base)]
    return json.dumps({"schema": schema, "payload": value}, separators=(",", ":")).encode()


def _f(field: str, kind: str, optional: bool = False, **more: Any) -> dict[str, Any]:
    return {"field": field, "type": kind, "optional": optional, **more}


_GEO = _f("geo", "struct", name="bench.Geo", fields=[_f("lat", "double"), _f("lon", "double")])
_ADDRESS = _f(
    "address", "struct", name="bench.Address",
    fields=[_f("street", "string"), _f("number", "int32"), _GEO],
)  # fmt: skip
WIDE_CONNECT_SCHEMA: dict[str, Any] = {
    "type": "struct",
    "name": "bench.Wide",
    "optional": False,
    "fields": [
        _f("id", "int64"), _f("seq", "int32"), _f("small", "int8"), _f("level", "int16"),
        _f("active", "boolean"), _f("ratio", "float"), _f("amount", "double"),
        _f("user", "string"), _f("email", "string", True), _f("country", "string"),
        _f("city", "string", True), _f("zip", "int32", True),
        _f("created", "int64", name="org.apache.kafka.connect.data.Timestamp", version=1),
        _f("day", "int32", name="org.apache.kafka.connect.data.Date", version=1),
        _f("blob", "bytes"),
        _f("tags", "array", items={"type": "string", "optional": False}),
        _f("scores", "array", items={"type": "double", "optional": False}),
        _ADDRESS,
        _f("attrs", "map", keys={"type": "string", "optional": False},
           values={"type": "string", "optional": False}),
        _f("status", "string"), _f("score", "double", True), _f("body", "string"),
    ],
}  # fmt: skip


def _opt(avro: Any) -> list[Any]:
    return ["null", avro]


WIDE_AVRO_SCHEMA: dict[str, Any] = {
    "type": "record",
    "name": "Wide",
    "namespace": "bench",
    "fields": [
        {"name": "id", "type": "long"}, {"name": "seq", "type": "int"},
        {"name": "small", "type": "int"}, {"name": "level", "type": "int"},
        {"name": "active", "type": "boolean"}, {"name": "ratio", "type": "float"},
        {"name": "amount", "type": "double"}, {"name": "user", "type": "string"},
        {"name": "email", "type": _opt("string"), "default": None},
        {"name": "country", "type": "string"},
        {"name": "city", "type": _opt("string"), "default": None},
        {"name": "zip", "type": _opt("int"), "default": None},
        {"name": "created", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "blob", "type": "bytes"},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "scores", "type": {"type": "array", "items": "double"}},
        {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
            {"name": "street", "type": "string"}, {"name": "number", "type": "int"},
            {"name": "geo", "type": {"type": "record", "name": "Geo", "fields": [
                {"name": "lat", "type": "double"}, {"name": "lon", "type": "double"}]}},
        ]}},
        {"name": "attrs", "type": {"type": "map", "values": "string"}},
        {"name": "status", "type": "string"},
        {"name": "score", "type": _opt("double"), "default": None},
        {"name": "body", "type": "string"},
    ],
}  # fmt: skip

_WIDE_DDL = (
    "id: BIGINT, seq: INT, small: TINYINT, level: SMALLINT, active: BOOLEAN, ratio: FLOAT, "
    "amount: DOUBLE, user: STRING, email: STRING, country: STRING, city: STRING, zip: INT, "
    "created: BIGINT, day: INT, blob: BINARY, tags: ARRAY<STRING>, scores: ARRAY<DOUBLE>, "
    "address: STRUCT<street: STRING, number: INT, geo: STRUCT<lat: DOUBLE, lon: DOUBLE>>, "
    "attrs: MAP<STRING, STRING>, status: STRING, score: DOUBLE, body: STRING"
)


def wide_value(i: int, record_bytes: int) -> dict[str, Any]:
    """The ``wide`` record's value ``i`` (Avro-ready: bytes as bytes), its JSON near
    ``record_bytes`` bytes."""
    value: dict[str, Any] = {
        "id": i, "seq": i % 2_000_000_000, "small": i % 128 - 64, "level": i % 30_000,
        "active": i % 2 == 0, "ratio": (i % 1000) / 8, "amount": i * 0.25,
        "user": f"user-{i % 1000}", "email": None if i % 3 == 0 else f"u{i}@example.com",
        "country": ("FR", "DE", "US", "JP")[i % 4],
        "city": None if i % 5 == 0 else f"city-{i % 97}",
        "zip": None if i % 7 == 0 else 10_000 + i % 90_000,
        "created": 1_700_000_000_000 + i * 1000, "day": 19_000 + i % 3000,
        "blob": (i % 65_536).to_bytes(2, "big") * 8,
        "tags": ["a", "b", f"t{i % 10}"], "scores": [i * 0.5, 1.5, -2.25],
        "address": {"street": f"{i % 400} main st", "number": i % 1000,
                    "geo": {"lat": 48.8 + (i % 100) / 1000, "lon": 2.3 - (i % 50) / 1000}},
        "attrs": {"k1": f"v{i % 13}", "k2": "x"},
        "status": ("new", "paid", "sent")[i % 3], "score": None if i % 4 == 0 else i / 3,
        "body": "",
    }  # fmt: skip
    base = len(json.dumps(_json_ready(value), separators=(",", ":")))
    value["body"] = _LOREM[: max(0, record_bytes - base)]
    return value


def _json_ready(value: dict[str, Any]) -> dict[str, Any]:
    return {**value, "blob": base64.b64encode(value["blob"]).decode()}


def wide_payload(i: int, record_bytes: int) -> bytes:
    """The ``wide`` record as a JSON envelope (its payload near ``record_bytes`` bytes)."""
    envelope = {"schema": WIDE_CONNECT_SCHEMA, "payload": _json_ready(wide_value(i, record_bytes))}
    return json.dumps(envelope, separators=(",", ":")).encode()


def registry_payload(registry_url: str, topic: str) -> Callable[[int, int], bytes]:
    """The ``registry`` record maker for ``topic``: the ``wide`` value as Confluent-framed Avro,
    its schema registered (as ``<topic>-value``) on first use."""
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    client = SchemaRegistryClient({"url": registry_url})
    serialize = AvroSerializer(client, json.dumps(WIDE_AVRO_SCHEMA))
    ctx = SerializationContext(topic, MessageField.VALUE)
    return lambda i, record_bytes: serialize(wide_value(i, record_bytes), ctx)


_JSON = {
    "value.converter": "org.apache.kafka.connect.json.JsonConverter",
    "value.converter.schemas.enable": "true",
}
_BENCH_DDL = "id: BIGINT, user: STRING, amount: DOUBLE, tags: ARRAY<STRING>, body: STRING"


def _from_json(ddl: str) -> Callable[[Any], Any]:
    def decode(df: Any) -> Any:
        envelope = f"schema STRING, payload STRUCT<{ddl}>"
        return df.selectExpr(f"from_json(CAST(value AS STRING), '{envelope}').payload AS p")

    return decode


def _from_avro(df: Any) -> Any:
    from pyspark.sql import functions as F
    from pyspark.sql.avro.functions import from_avro

    datum = F.expr("substring(value, 6)")  # after the magic byte and the 4-byte schema id
    return df.select(from_avro(datum, json.dumps(WIDE_AVRO_SCHEMA)).alias("p"))


RECORDS = {
    "bench": RecordKind("bench", lambda url: _JSON, _from_json(_BENCH_DDL)),
    "wide": RecordKind("wide", lambda url: _JSON, _from_json(_WIDE_DDL)),
    "registry": RecordKind(
        "registry",
        lambda url: {
            "value.converter": "io.confluent.connect.avro.AvroConverter",
            "value.converter.schema.registry.url": url,
        },
        _from_avro,
    ),
}
