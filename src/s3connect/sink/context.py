"""Config -> the objects one topic-partition writer uses (converters, partitioner, format, ...).

The single place where connector keys become behaviour; the writer and the Spark glue only see
the resulting :class:`~s3connect.sink.writer.WriterContext`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial

from s3connect.config.converters import SINK_CONVERTER_CLASSES
from s3connect.config.plugins import load_plugin
from s3connect.config.sink import SinkConfig
from s3connect.connect.records import Header, RawRecord, SinkRecord
from s3connect.connect.schema import ConnectSchema, schema_identity
from s3connect.convert.registry.client import with_record_context
from s3connect.errors import ConversionError
from s3connect.formats.base import Format
from s3connect.formats.factory import make_format
from s3connect.formats.views import ViewFormat
from s3connect.sink.converters import (
    FAILING_HEADER_CONVERTERS,
    HEADER_TEXTS,
    build_converter,
    with_headers,
)
from s3connect.sink.lines import line_plan
from s3connect.sink.partitioners import build_partitioner
from s3connect.sink.rotation import RotationPolicy, SchemaCompatibility, SchemaKey
from s3connect.sink.writer import WriterContext
from s3connect.storage.base import Storage
from s3connect.storage.factory import make_storage
from s3connect.storage.naming import object_key
from s3connect.storage.s3 import S3Settings

__all__ = [
    "build_converter",
    "build_format",
    "build_record_converter",
    "build_storage",
    "build_view_formats",
    "build_writer_context",
    "schema_key",
]


def build_format(config: SinkConfig, fmt: str | None = None) -> Format:
    """The file format of ``format.class`` (or ``fmt``) with its codec options."""
    if fmt is None and config.format.plugin is not None:
        plugin: Format = load_plugin("format", config.format.plugin)(config.format.plugin_settings)
        return plugin
    avro_data = config.format.avro_data
    match fmt or config.format.name:
        case "avro":
            return make_format("avro", codec=config.format.avro_codec, avro_data=avro_data)
        case "parquet":
            return make_format("parquet", codec=config.format.parquet_codec, avro_data=avro_data)
        case "json":
            return make_format(
                "json",
                compression=config.format.compression_type,
                level=config.format.compression_level,
                decimal_format=config.format.json_decimal_format,
            )
        case "bytearray":
            return make_format(
                "bytearray",
                extension=config.format.bytearray_extension,
                separator=config.format.bytearray_separator,
                compression=config.format.compression_type,
                level=config.format.compression_level,
            )
    raise AssertionError(fmt or config.format.name)


def build_view_formats(config: SinkConfig) -> tuple[ViewFormat | None, ViewFormat | None]:
    """The keys and headers file formats (``store.kafka.keys`` / ``store.kafka.headers``)."""
    keys = (
        ViewFormat(
            build_format(config, config.keys_headers.keys_format),
            "keys",
            config.keys_headers.keys_format,
        )
        if config.keys_headers.store_kafka_keys
        else None
    )
    headers = (
        ViewFormat(
            build_format(config, config.keys_headers.headers_format),
            "headers",
            config.keys_headers.headers_format,
        )
        if config.keys_headers.store_kafka_headers
        else None
    )
    return keys, headers


def build_storage(config: SinkConfig) -> Storage:
    """S3 (or a ``file://`` folder) with the connector's S3 options."""
    return make_storage(
        S3Settings(
            bucket=config.s3.bucket_name,
            region=config.s3.region,
            endpoint_url=config.s3.store_url,
            path_style=config.s3.path_style_access,
            access_key_id=config.s3.access_key_id,
            secret_access_key=config.s3.secret_access_key,
            part_size=config.s3.part_size,
            part_retries=config.s3.part_retries,
            retry_backoff_ms=config.s3.retry_backoff_ms,
            sse_algorithm=config.s3.ssea_name,
            sse_kms_key_id=config.s3.sse_kms_key_id,
            sse_customer_key=config.s3.sse_customer_key,
            acl=config.s3.acl_canned,
            object_tagging=config.s3.object_tagging,
            extra_tags=config.s3.object_tagging_extra,
            fail_on_tagging_error=config.s3.object_behavior_on_tagging_error == "fail",
            assume_role=config.s3.assume_role(),
            proxy=config.s3.proxy,
            conditional_writes=config.conditional_writes,
            send_digest=config.s3.send_digest,
        )
    )


class _SchemaKeys:
    """Stable identities of value schemas (None when schemaless).

    Converters hand out one object per distinct schema, so the fingerprint of the last schema
    seen is reused while records keep the same schema object.
    """

    def __init__(self) -> None:
        self._last: ConnectSchema | None = None
        self._last_key: str | None = None

    def __call__(self, record: SinkRecord) -> SchemaKey:
        schema = record.value_schema
        if schema is None:
            return None
        if schema is not self._last:
            self._last = schema
            self._last_key = _fingerprint(schema)
        return self._last_key


def schema_key(record: SinkRecord) -> SchemaKey:
    """A stable identity of the record's value schema (None when schemaless)."""
    return None if record.value_schema is None else _fingerprint(record.value_schema)


def _fingerprint(schema: ConnectSchema) -> str:
    """The schema's identity as rotation state keeps it (equal schemas, equal keys)."""
    return hashlib.sha256(schema_identity(schema).encode()).hexdigest()[:32]


def _uses_registry(config: SinkConfig) -> bool:
    return config.registry.key is not None or config.registry.value is not None


def build_record_converter(config: SinkConfig) -> Callable[[RawRecord], SinkRecord | None]:
    """Raw record -> converted record (key, value, headers), then the transforms, as Kafka Connect's
    ``WorkerSinkTask``; None when a transform drops it. A failure is a :class:`ConversionError`
    or a ``TransformationError`` naming the stage (a dead letter when tolerated)."""
    key_converter = with_headers(build_converter(config, is_key=True))
    value_converter = with_headers(build_converter(config, is_key=False))
    convert_headers = _header_converter(config)

    def convert(raw: RawRecord) -> SinkRecord:
        # Kafka Connect converts the key, then the value (WorkerSinkTask order).
        try:
            key, key_schema = key_converter(raw.topic, raw.key, raw.headers)
        except ValueError as exc:
            if config.keys_headers.store_kafka_keys:
                raise ConversionError(
                    f"key could not be converted by {config.converters.key} converter: {exc}",
                    topic=raw.topic, partition=raw.partition, offset=raw.offset,
                    stage="KEY_CONVERTER", class_name=SINK_CONVERTER_CLASSES[config.converters.key],
                ) from exc  # fmt: skip
            # Confluent's sink converts keys too; a key the value format does not store must not
            # fail the record, so keep it raw.
            key, key_schema = raw.key, None
        try:
            value, value_schema = value_converter(raw.topic, raw.value, raw.headers)
        except ValueError as exc:
            raise ConversionError(
                f"value could not be converted by {config.converters.value} converter: {exc}",
                topic=raw.topic, partition=raw.partition, offset=raw.offset,
                stage="VALUE_CONVERTER", class_name=SINK_CONVERTER_CLASSES[config.converters.value],
            ) from exc  # fmt: skip
        return SinkRecord(
            topic=raw.topic,
            partition=raw.partition,
            offset=raw.offset,
            timestamp=raw.timestamp,
            key=key,
            value=value,
            key_schema=key_schema,
            value_schema=value_schema,
            headers=convert_headers(raw),
        )

    # A Schema Registry outage names the record (converters only know the topic).
    converted = with_record_context(convert) if _uses_registry(config) else convert
    chain = config.transforms.chain()
    if not len(chain):
        return converted

    def transformed(raw: RawRecord) -> SinkRecord | None:
        # As Kafka Connect's WorkerSinkTask: convert, then the transforms, then the task.
        return chain.apply(converted(raw))

    return transformed


def _header_converter(config: SinkConfig) -> Callable[[RawRecord], tuple[Header, ...]]:
    """A raw record's headers as the record holds them: only the headers file reads header
    values, so they are converted for it alone (the raw bytes stay in the dead letter queue).
    A header converter that refuses some values (the number and Boolean converters) converts
    them all the same, as Kafka Connect does after the value: a refused one is a
    ``HEADER_CONVERTER`` failure."""
    name = config.converters.header
    view = HEADER_TEXTS[name]
    stored = config.keys_headers.store_kafka_headers
    if not stored and name not in FAILING_HEADER_CONVERTERS:
        return lambda raw: raw.headers

    def headers(raw: RawRecord) -> tuple[Header, ...]:
        if not raw.headers:
            return raw.headers
        try:
            texts = tuple((k, view(None if v is None else bytes(v))) for k, v in raw.headers)
        except ValueError as exc:
            raise ConversionError(
                f"headers could not be converted by {name} header converter: {exc}",
                topic=raw.topic, partition=raw.partition, offset=raw.offset,
                stage="HEADER_CONVERTER", class_name=config.converters.header_class,
            ) from exc  # fmt: skip
        return texts if stored else raw.headers

    return headers


def build_writer_context(config: SinkConfig) -> WriterContext:
    """Everything a :class:`~s3connect.sink.writer.TopicPartitionWriter` needs for ``config``."""
    partitioner, extractor = build_partitioner(config)
    naming = partial(
        object_key,
        topics_dir=config.layout.topics_dir,
        directory_delim=config.layout.directory_delim,
        file_delim=config.layout.file_delim,
        zero_pad_width=config.layout.filename_offset_zero_pad_width,
    )

    def key_for(topic: str, encoded: str, kafka_partition: int, start: int, ext: str) -> str:
        return naming(
            topic=topic,
            encoded_partition=encoded,
            kafka_partition=kafka_partition,
            start_offset=start,
            extension=ext,
        )

    keys_format, headers_format = build_view_formats(config)
    return WriterContext(
        convert=build_record_converter(config),
        encode_partition=partitioner.encode_partition,
        extract_timestamp=extractor.extract if extractor is not None else None,
        schema_key=_SchemaKeys(),
        format=build_format(config),
        object_key=key_for,
        storage=build_storage(config),
        policy=RotationPolicy(
            flush_size=config.rotation.flush_size,
            rotate_interval_ms=config.rotation.rotate_interval_ms,
            rotate_schedule_interval_ms=config.rotation.rotate_schedule_interval_ms,
            rotate_on_partition_change=config.rotation.rotate_file_on_partition_change,
            timezone=config.partitioner.timezone or None,
            schema_compatibility=SchemaCompatibility(config.converters.schema_compatibility),
            max_open_files=config.rotation.partitioner_max_open_files,
            tombstone_partition=(
                config.keys_headers.tombstone_encoded_partition
                if config.partitioner.behavior_on_null_values == "write"
                else None
            ),
        ),
        null_values=config.partitioner.behavior_on_null_values,
        report_ignored_nulls=config.errors.report_null_values_to_dlq and config.errors.has_reporter,
        keys_format=keys_format,
        headers_format=headers_format,
        tombstone_partition=config.keys_headers.tombstone_encoded_partition,
        value_needs_schema=_needs_schema(config),
        tolerate_errors=config.errors.tolerance == "all",
        task_errors_reported=config.errors.has_reporter,
        lines=line_plan(config),
    )


def _needs_schema(config: SinkConfig) -> bool:
    """Whether the value format writes schema'd values only (a schemaless record then fails on
    its own, before it joins a file): Parquet (Confluent's fails on AvroData's recursive
    ``Anything`` schema), or a plugin saying ``needs_schema``. Avro writes schemaless values
    in that ``Anything`` record, as Confluent's AvroFormat."""
    if config.format.plugin is not None:
        return bool(getattr(load_plugin("format", config.format.plugin), "needs_schema", False))
    return config.format.name == "parquet"
