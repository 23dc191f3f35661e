"""Helpers for the transform tests: records, schemas and one-transform chains."""

from __future__ import annotations

from typing import Any

import pytest

from s3connect.connect.records import Header, SinkRecord
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.errors import ConfigError
from s3connect.transforms.chain import TransformationChain, build_chain

K = "org.apache.kafka.connect.transforms."
P = "org.apache.kafka.connect.transforms.predicates."
NOW_MS = 1_700_000_000_000  # 2023-11-14T22:13:20Z: the clock the chains are built at

INT8, INT16, INT32, INT64 = (
    ConnectSchema(t) for t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64)
)
FLOAT32, FLOAT64 = ConnectSchema(Type.FLOAT32), ConnectSchema(Type.FLOAT64)
BOOLEAN, STRING, BYTES = (
    ConnectSchema(Type.BOOLEAN),
    ConnectSchema(Type.STRING),
    ConnectSchema(Type.BYTES),
)
OPTIONAL_INT32 = ConnectSchema(Type.INT32, optional=True)
OPTIONAL_INT64 = ConnectSchema(Type.INT64, optional=True)
OPTIONAL_STRING = ConnectSchema(Type.STRING, optional=True)
TIMESTAMP_SCHEMA = ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)
DATE_SCHEMA = ConnectSchema(Type.INT32, name=DATE, version=1)
TIME_SCHEMA = ConnectSchema(Type.INT32, name=TIME, version=1)


def decimal_schema(scale: int) -> ConnectSchema:
    """Connect's ``Decimal.schema(scale)``."""
    return ConnectSchema(Type.BYTES, name=DECIMAL, version=1, parameters={"scale": str(scale)})


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    """A struct schema of (name, schema) pairs; ``kw`` sets name, optional, default, ..."""
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, s) for n, s in fields), **kw)


def rec(
    value: Any = None,
    value_schema: ConnectSchema | None = None,
    *,
    key: Any = None,
    key_schema: ConnectSchema | None = None,
    topic: str = "test",
    partition: int = 0,
    offset: int = 0,
    timestamp: int | None = None,
    headers: tuple[Header, ...] = (),
) -> SinkRecord:
    """A record (value first, as most tests transform values)."""
    return SinkRecord(
        topic, partition, offset, timestamp, key, value, key_schema, value_schema, headers
    )


def one(type_: str, props: dict[str, Any] | None = None) -> TransformationChain:
    """A chain of one transform ``t`` of class ``type_`` (short names get Kafka's package)."""
    full = type_ if "." in type_ else K + type_
    config = {"transforms": "t", "transforms.t.type": full}
    config.update({f"transforms.t.{k}": v for k, v in (props or {}).items()})
    return build_chain(config, now_ms=NOW_MS)


def apply(type_: str, props: dict[str, Any] | None, record: SinkRecord) -> SinkRecord:
    """``record`` through one transform (which must not drop it)."""
    out = one(type_, props).apply(record)
    assert out is not None
    return out


def problems(config: dict[str, Any]) -> str:
    """The ConfigError message ``build_chain`` raises for ``config``."""
    with pytest.raises(ConfigError) as info:
        build_chain(config, now_ms=NOW_MS)
    return str(info.value)


def one_problems(type_: str, props: dict[str, Any] | None = None) -> str:
    """The ConfigError message for a chain of one transform ``t``."""
    with pytest.raises(ConfigError) as info:
        one(type_, props)
    return str(info.value)
