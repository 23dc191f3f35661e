"""Config -> the objects one topic-partition writer uses (converters, partitioner, format, ...).

The single place where connector keys become behaviour; the writer and the Spark glue only see
the resulting :class:`~s3connect.sink.writer.WriterContext`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial

from s3connect.config.sink import SINK_CONVERTER_CLASSES, SinkConfig
from s3connect.connect.records import RawRecord, SinkRecord
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.base import Converter
from s3connect.convert.factory import make_converter
from s3connect.convert.registry.client import Registry, RetryPolicy, with_record_context
from s3connect.errors import ConversionError
from s3connect.formats.base import Format
from s3connect.formats.factory import make_format
from s3connect.formats.views import ViewFormat
from s3connect.sink.partitioners import (
    DailyPartitioner,
    DefaultPartitioner,
    FieldPartitioner,
    HourlyPartitioner,
    Partitioner,
    RecordFieldTimestampExtractor,
    RecordTimestampExtractor,
    TimeBasedPartitioner,
    TimestampExtractor,
    WallclockTimestampExtractor,
)
from s3connect.sink.rotation import RotationPolicy, SchemaCompatibility, SchemaKey
from s3connect.sink.writer import WriterContext
from s3connect.storage.base import Storage
from s3connect.storage.factory import make_storage
from s3connect.storage.naming import object_key
from s3connect.storage.s3 import AssumeRole, S3Settings

__all__ = [
    "build_converter",
    "build_format",
    "build_partitioner",
    "build_record_converter",
    "build_storage",
    "build_view_formats",
    "build_writer_context",
    "schema_key",
]


def build_format(config: SinkConfig, fmt: str | None = None) -> Format:
    """The file format of ``format.class`` (or ``fmt``) with its codec options."""
    match fmt or config.format:
        case "avro":
            return make_format("avro", codec=config.avro_codec)
        case "parquet":
            return make_format("parquet", codec=config.parquet_codec)
        case "json":
            return make_format(
                "json",
                compression=config.s3_compression_type,
                level=config.s3_compression_level,
                decimal_format=config.json_decimal_format,
            )
        case "bytearray":
            return make_format(
                "bytearray",
                extension=config.format_bytearray_extension,
                separator=config.format_bytearray_separator,
                compression=config.s3_compression_type,
                level=config.s3_compression_level,
            )
    raise AssertionError(fmt or config.format)


def build_view_formats(config: SinkConfig) -> tuple[ViewFormat | None, ViewFormat | None]:
    """The keys and headers file formats (``store.kafka.keys`` / ``store.kafka.headers``)."""
    keys = (
        ViewFormat(build_format(config, config.keys_format), "keys", config.keys_format)
        if config.store_kafka_keys
        else None
    )
    headers = (
        ViewFormat(build_format(config, config.headers_format), "headers", config.headers_format)
        if config.store_kafka_headers
        else None
    )
    return keys, headers


def build_extractor(config: SinkConfig) -> TimestampExtractor:
    """The ``timestamp.extractor`` of a time-based partitioner."""
    match config.timestamp_extractor:
        case "Record":
            return RecordTimestampExtractor()
        case "RecordField":
            return RecordFieldTimestampExtractor(config.timestamp_field)
    return WallclockTimestampExtractor()


def build_partitioner(config: SinkConfig) -> tuple[Partitioner, TimestampExtractor | None]:
    """The ``partitioner.class`` and, for time-based ones, its timestamp extractor."""
    delim = config.directory_delim
    match config.partitioner:
        case "field":
            return FieldPartitioner(config.partition_field_name, directory_delim=delim), None
        case "time":
            extractor = build_extractor(config)
            return TimeBasedPartitioner(
                config.path_format,
                config.partition_duration_ms,
                config.locale,
                config.timezone,
                extractor,
                directory_delim=delim,
            ), extractor
        case "daily":
            extractor = build_extractor(config)
            return DailyPartitioner(
                config.locale, config.timezone, extractor, directory_delim=delim
            ), extractor
        case "hourly":
            extractor = build_extractor(config)
            return HourlyPartitioner(
                config.locale, config.timezone, extractor, directory_delim=delim
            ), extractor
    return DefaultPartitioner(directory_delim=delim), None


def build_storage(config: SinkConfig) -> Storage:
    """S3 (or a ``file://`` folder) with the connector's S3 options."""
    return make_storage(
        S3Settings(
            bucket=config.s3_bucket_name,
            region=config.s3_region,
            endpoint_url=config.store_url,
            path_style=config.s3_path_style_access,
            access_key_id=config.aws_access_key_id,
            secret_access_key=config.aws_secret_access_key,
            part_size=config.s3_part_size,
            part_retries=config.s3_part_retries,
            retry_backoff_ms=config.s3_retry_backoff_ms,
            sse_algorithm=config.s3_ssea_name,
            sse_kms_key_id=config.s3_sse_kms_key_id,
            sse_customer_key=config.s3_sse_customer_key,
            acl=config.s3_acl_canned,
            object_tagging=config.s3_object_tagging,
            extra_tags=config.s3_object_tagging_extra,
            fail_on_tagging_error=config.s3_object_behavior_on_tagging_error == "fail",
            assume_role=_assume_role(config),
        )
    )


def _assume_role(config: SinkConfig) -> AssumeRole | None:
    """``AwsAssumeRoleCredentialsProvider``'s settings, when it is the credentials provider."""
    if config.s3_credentials_provider != "assume_role":
        return None
    assert config.sts_role_arn is not None and config.sts_role_session_name is not None
    return AssumeRole(
        role_arn=config.sts_role_arn,
        session_name=config.sts_role_session_name,
        external_id=config.sts_role_external_id,
        region=config.sts_region,
        endpoint_url=config.sts_endpoint_url,
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
            self._last_key = hashlib.sha256(repr(schema).encode()).hexdigest()[:32]
        return self._last_key


def schema_key(record: SinkRecord) -> SchemaKey:
    """A stable identity of the record's value schema (None when schemaless)."""
    if record.value_schema is None:
        return None
    return hashlib.sha256(repr(record.value_schema).encode()).hexdigest()[:32]


def build_converter(config: SinkConfig, *, is_key: bool) -> Converter:
    """The key or value converter; a Schema Registry one gets its registry and the retries of
    ``errors.retry.timeout`` / ``errors.retry.delay.max.ms``."""
    name = config.key_converter if is_key else config.value_converter
    registry = config.key_converter_registry if is_key else config.value_converter_registry
    if registry is not None:
        retry = RetryPolicy(config.errors_retry_timeout_ms, config.errors_retry_delay_max_ms)
        return make_converter(name, registry=Registry(registry, retry), is_key=is_key)
    if is_key:
        return make_converter(name, schemas_enable=config.key_converter_schemas_enable, is_key=True)
    return make_converter(name, schemas_enable=config.value_converter_schemas_enable)


def _uses_registry(config: SinkConfig) -> bool:
    return config.key_converter_registry is not None or config.value_converter_registry is not None


def build_record_converter(config: SinkConfig) -> Callable[[RawRecord], SinkRecord]:
    """Raw record -> converted record, key then value as Kafka Connect's ``WorkerSinkTask``;
    a failure is a :class:`ConversionError` naming the stage (a dead letter when tolerated)."""
    key_converter = build_converter(config, is_key=True)
    value_converter = build_converter(config, is_key=False)

    def convert(raw: RawRecord) -> SinkRecord:
        # Kafka Connect converts the key, then the value (WorkerSinkTask order).
        try:
            key, key_schema = key_converter.to_connect(raw.topic, raw.key)
        except ValueError as exc:
            if config.store_kafka_keys:
                raise ConversionError(
                    f"key could not be converted by {config.key_converter} converter: {exc}",
                    topic=raw.topic, partition=raw.partition, offset=raw.offset,
                    stage="KEY_CONVERTER", class_name=SINK_CONVERTER_CLASSES[config.key_converter],
                ) from exc  # fmt: skip
            # Confluent's sink converts keys too; a key the value format does not store must not
            # fail the record, so keep it raw.
            key, key_schema = raw.key, None
        try:
            value, value_schema = value_converter.to_connect(raw.topic, raw.value)
        except ValueError as exc:
            raise ConversionError(
                f"value could not be converted by {config.value_converter} converter: {exc}",
                topic=raw.topic, partition=raw.partition, offset=raw.offset,
                stage="VALUE_CONVERTER", class_name=SINK_CONVERTER_CLASSES[config.value_converter],
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
            headers=raw.headers,
        )

    # A Schema Registry outage names the record (converters only know the topic).
    return with_record_context(convert) if _uses_registry(config) else convert


def build_writer_context(config: SinkConfig) -> WriterContext:
    """Everything a :class:`~s3connect.sink.writer.TopicPartitionWriter` needs for ``config``."""
    partitioner, extractor = build_partitioner(config)
    naming = partial(
        object_key,
        topics_dir=config.topics_dir,
        directory_delim=config.directory_delim,
        file_delim=config.file_delim,
        zero_pad_width=config.filename_offset_zero_pad_width,
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
            flush_size=config.flush_size,
            rotate_interval_ms=config.rotate_interval_ms,
            rotate_schedule_interval_ms=config.rotate_schedule_interval_ms,
            rotate_on_partition_change=config.rotate_file_on_partition_change,
            timezone=config.timezone or None,
            schema_compatibility=SchemaCompatibility(config.schema_compatibility),
        ),
        null_values=config.behavior_on_null_values,
        keys_format=keys_format,
        headers_format=headers_format,
        tombstone_partition=config.tombstone_encoded_partition,
        value_needs_schema=config.format in ("avro", "parquet"),
        tolerate_errors=config.errors_tolerance == "all",
    )
