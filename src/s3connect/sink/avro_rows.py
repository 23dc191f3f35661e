"""The line path from Confluent's AvroConverter into ParquetFormat: a batch's Avro datums of one
schema become Parquet's columns at once, not records.

The JVM reads each datum beside the Kafka value (:mod:`s3connect.spark.jvm_lines`,
``s3connect.jvm.RegistryAvroRow``) into a row of its plain Avro values, one column
(``avro_row_<id>``) per schema the query's topics have as their latest value schema, null where
the value is not in that schema or its datum is not read exactly. The rows of a batch's first
such record are typed by its Connect schema (:func:`~s3connect.formats.payloads.avro_rows`);
every other record (another schema, a null row, a batch holding a value the Python reader may
read otherwise) goes through the per-record path, which decides its file, rotation and errors.
Without the JVM's columns every record goes per record.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pyarrow as pa

from s3connect.config.sink import SinkConfig
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.avro_data import AvroDataOptions
from s3connect.convert.base import Converter
from s3connect.convert.registry.client import Registry, RegistrySettings, subject_name
from s3connect.formats.payloads import avro_rows
from s3connect.sink.envelopes import SchemaLines

__all__ = [
    "AVRO_ROW_PREFIX",
    "MOST_ROW_SCHEMAS",
    "first_framed",
    "latest_value_schemas",
    "registry_avro_rows",
    "wire_prefix",
]

logger = logging.getLogger(__name__)

AVRO_ROW_PREFIX = "avro_row_"
"""The JVM's columns of rows: ``avro_row_<schema id>``."""


def registry_avro_rows(converter: Converter, options: AvroDataOptions) -> SchemaLines:
    """The rows of AvroConverter's datums (``converter``) as ParquetFormat (AvroData's
    ``options``) writes their values."""

    def rows_of(rows: pa.RecordBatch, topic: str) -> tuple[pa.Array, ConnectSchema] | None:
        found = first_framed(rows, AVRO_ROW_PREFIX)
        if found is None:
            return None
        name, first = found
        try:
            value, schema = converter.to_connect(topic, rows.column("value")[first].as_py())
            if value is None or schema is None:
                return None
            return avro_rows(rows.column(name), schema, options), schema
        except Exception:  # the per-record path raises it again, or writes what this refused
            return None

    return rows_of


def first_framed(rows: pa.RecordBatch, prefix: str) -> tuple[str, int] | None:
    """Of the JVM's columns named ``prefix<schema id>``, the one holding the batch's first
    value (not null), and its index."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    firsts = []
    for name in rows.schema.names:
        if name.startswith(prefix):
            at = pc.index(rows.column(name).is_valid(), True).as_py()
            if at >= 0:
                firsts.append((at, name))
    if not firsts:
        return None
    at, name = min(firsts)
    return name, at


def wire_prefix(schema_id: int) -> bytes:
    """The 5 bytes a Confluent-framed value of ``schema_id`` starts with (magic byte 0, id)."""
    return b"\x00" + schema_id.to_bytes(4, "big")


def latest_value_schemas(config: SinkConfig) -> list[tuple[int, str]]:
    """(id, Avro schema JSON) of the latest value schema of each topic the config reads
    (TopicNameStrategy's subjects: ``topics``, or the registry's ``<topic>-value`` subjects whose
    topic ``topics.regex`` matches), without references, at most :data:`MOST_ROW_SCHEMAS` of
    them (the newest); none when the registry does not answer at once (the records then go
    record by record)."""
    settings = config.registry.value
    if settings is None:
        return []
    registry = _registry(settings)
    found: dict[int, str] = {}
    for topic in _value_topics(config, registry):
        try:
            latest = registry.latest(subject_name(topic, False), topic)
        except Exception as exc:  # the workers' converters say it, record by record
            logger.debug("no latest value schema of %s: %s", topic, exc)
            continue
        schema = latest.schema
        if schema.schema_type in (None, "AVRO") and not schema.references:
            found[int(latest.schema_id)] = schema.schema_str
    return sorted(found.items())[-MOST_ROW_SCHEMAS:]


MOST_ROW_SCHEMAS = 4
"""Schemas read into rows per micro-batch: each adds a column every record pays for."""


def _value_topics(config: SinkConfig, registry: Registry) -> list[str]:
    """The topics named, or those of the registry's value subjects ``topics.regex`` matches
    (as Kafka's pattern subscription: the whole name)."""
    if config.topics.regex is None:
        return list(config.topics.names)
    try:
        subjects = registry.subjects()
    except Exception as exc:
        logger.debug("no subjects listed: %s", exc)
        return []
    pattern = re.compile(config.topics.regex)
    suffix = subject_name("", False)
    topics = [s.removesuffix(suffix) for s in subjects if s.endswith(suffix)]
    return [t for t in topics if pattern.fullmatch(t)]


_registries: dict[str, Registry] = {}


def _registry(settings: RegistrySettings) -> Registry:
    """One client per registry and credentials for the driver's process (its schema cache)."""
    key = json.dumps(settings.client_config(), sort_keys=True)
    if key not in _registries:  # no retries: a hint, not needed
        _registries[key] = Registry(settings, client_factory=_hint_client)
    return _registries[key]


_HINT_TIMEOUT_S = 5


def _hint_client(conf: dict[str, Any]) -> Any:
    """A registry client that gives up after one request of at most 5 s (the client's own
    default waits forever on a registry that does not answer, holding up the micro-batch)."""
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient({**conf, "timeout": _HINT_TIMEOUT_S, "max.retries": 0})
