"""The S3 source's pure part (no Spark): find the sink's objects, read their records back.

Listing keeps the objects under ``topics.dir`` whose extension is the configured format's
(``.avro``; ``.json`` / ``.json.gz``; ``*.parquet`` of any codec; the ByteArray extension, also
``.gz``); anything else is ignored. A kept object must be named
``<topic>/<encodedPartition>/<topic>+<partition>+<offset><ext>`` (a file in another topic's folder
is read as its file name's topic's, as Confluent's source documents); one that is not is handled per
``behavior.on.error`` (fail: :class:`~s3connect.errors.SourceObjectError` naming the key;
ignore / log: skipped, and the log says which). Objects are grouped by (topic, partition) and
ordered by (start offset, key).

Keys and headers companion objects (``<topic>+<partition>+<offset>.keys.<ext>``,
``.headers.<ext>``, written by ``store.kafka.keys`` / ``store.kafka.headers``) are attached to
their value object (:class:`SourceObject`) and read with it: each record gets its key, serialized
with ``key.converter`` (the sink's key converter gives the original bytes), and its headers (the
stored text as UTF-8 bytes, as ``SimpleHeaderConverter`` writes a string header). Their format is
told by their extension (``keys.format.class`` may differ from ``format.class``). A keys object
without a value object is a file of tombstones (``behavior.on.null.values=write`` writes no value
file in ``tombstone.encoded.partition``): its records are published with a null value. Kafka
timestamps are not restored: Confluent's sink stores them nowhere.

A ByteArray object whose records contain the separator is split into more records than it
holds. That is detected when the object's record count exceeds its bound: ``flush.size`` (when
configured) or, under the DefaultPartitioner, the next object's start offset minus its own (the
last object of a topic-partition has no such bound). Only records that add pieces are caught:
an object with fewer pieces than offsets is legitimate (offset gaps).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pyarrow as pa

from s3connect.config.source import SourceConfig
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.base import Serializer
from s3connect.convert.factory import make_serializer
from s3connect.errors import SourceObjectError, TransformationError
from s3connect.formats.base import FileRecords
from s3connect.formats.factory import read_bytearray_values, read_file
from s3connect.formats.json import read_json_each
from s3connect.formats.views import unwrap_headers, unwrap_keys
from s3connect.storage.base import Storage
from s3connect.storage.factory import make_storage
from s3connect.storage.naming import parse_object_key
from s3connect.storage.s3 import S3Settings
from s3connect.transforms.chain import TransformationChain

__all__ = [
    "Listing",
    "SourceObject",
    "SourceRecord",
    "companion_format",
    "key_serializer_for",
    "list_objects",
    "plain_bytes",
    "read_object",
    "read_values",
    "source_storage",
]

logger = logging.getLogger(__name__)
_PARQUET_CODEC_EXTENSIONS = ("", ".snappy", ".gz", ".br", ".lz4hadoop", ".lz4raw", ".lz4", ".zstd")
_COMPANION = re.compile(r"\.(keys|headers)(\..+)$")


def _name_parts(key: str, file_delim: str) -> tuple[str, str] | None:
    """(the key up to its start offset's last digit, the rest: ``.json``, ``.keys.avro``), or
    None for a key that does not end in ``<file.delim><digits><ext>``."""
    head, sep, tail = key.rpartition(file_delim)
    digits = len(tail) - len(tail.lstrip("0123456789"))
    if not sep or not digits:
        return None
    return head + sep + tail[:digits], tail[digits:]


def _companion(key: str, file_delim: str) -> tuple[str, str, str] | None:
    """(value key without extension, "keys" | "headers", the companion's own extension) of a
    keys or headers object: the suffix right after the start offset (a topic named
    ``orders.keys.v1`` makes no companions); None for any other key."""
    parts = _name_parts(key, file_delim)
    m = _COMPANION.match(parts[1]) if parts is not None else None
    if parts is None or m is None:
        return None
    return parts[0], m.group(1), m.group(2)


@dataclass(frozen=True, slots=True)
class SourceObject:
    """One value object of the sink, with its keys/headers companions when present."""

    key: str
    topic: str
    partition: int
    start_offset: int
    extension: str
    keys_key: str | None = None
    headers_key: str | None = None
    tombstones: bool = False
    """A keys object with no value object: its records are tombstones (null values)."""

    @property
    def order(self) -> tuple[int, str]:
        """Its place among the objects of its topic-partition."""
        return (self.start_offset, self.key)


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One record to publish: Kafka bytes, and where it came from (object key, record index)."""

    topic: str
    partition: int
    key: bytes | None
    value: bytes | None
    object_key: str
    index: int
    headers: tuple[tuple[str, bytes | None], ...] = ()


@dataclass
class Listing:
    """Objects per (topic, partition) in order, and the badly named keys that were skipped."""

    objects: dict[tuple[str, int], list[SourceObject]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def value_extensions(config: SourceConfig) -> tuple[str, ...]:
    """The extensions a value object of the configured format may end with."""
    if config.format.name == "avro":
        return (".avro",)
    if config.format.name == "json":
        return (".json", ".json.gz")
    if config.format.name == "parquet":
        return tuple(f"{codec}.parquet" for codec in _PARQUET_CODEC_EXTENSIONS)
    ext = config.format.bytearray_extension
    return (ext, ext + ".gz")


def handle(config: SourceConfig, message: str, key: str) -> None:
    """Apply ``behavior.on.error`` to a problem with object ``key``: raise, or log and go on."""
    if config.behavior_on_error == "fail":
        raise SourceObjectError(message, key=key)
    level = logging.ERROR if config.behavior_on_error == "log" else logging.INFO
    mode = config.behavior_on_error
    logger.log(level, "skipping %s: %s (behavior.on.error=%s)", key, message, mode)


def _classify(key: str, config: SourceConfig, listing: Listing) -> SourceObject | str | None:
    """A value object, a companion key (str), or None (ignored or skipped)."""
    filename = key.rpartition(config.layout.directory_delim)[2]
    companion = _companion(filename, config.layout.file_delim)
    suffixes = value_extensions(config)
    if companion is None and not filename.endswith(suffixes):
        return None  # another format's object, or not an object of the sink
    try:
        parsed = parse_object_key(
            key,
            topics_dir=config.layout.topics_dir,
            directory_delim=config.layout.directory_delim,
            file_delim=config.layout.file_delim,
            any_topic_folder=True,
        )
    except ValueError as exc:
        if companion is not None:
            return None
        listing.skipped.append(key)
        handle(config, f"name does not match <topic>+<partition>+<offset><ext>: {exc}", key)
        return None
    if not config.wants_topic(parsed.topic):
        return None
    if companion is not None:
        return key
    if parsed.extension not in suffixes:
        return None
    return SourceObject(
        key=key,
        topic=parsed.topic,
        partition=parsed.kafka_partition,
        start_offset=parsed.start_offset,
        extension=parsed.extension,
    )


def list_objects(storage: Storage, config: SourceConfig) -> Listing:
    """Every value object under ``topics.dir``, grouped and ordered (see the module docstring).

    Raises:
        SourceObjectError: a badly named object with ``behavior.on.error=fail``.
    """
    prefix = (
        config.layout.topics_dir + config.layout.directory_delim
        if config.layout.topics_dir.strip()
        else ""
    )
    listing = Listing()
    found: list[SourceObject] = []
    companions: dict[tuple[str, str], str] = {}
    value_bases: set[str] = set()  # of every value object, of any format
    delim = config.layout.file_delim
    for key in storage.list_keys(prefix):
        item = _classify(key, config, listing)
        if isinstance(item, SourceObject):
            found.append(item)
        elif isinstance(item, str):
            base, kind, _ = _companion(item, delim) or ("", "", "")
            companions[(base, kind)] = item
        elif _companion(key, delim) is None and (parts := _name_parts(key, delim)) is not None:
            value_bases.add(parts[0])  # another format's value object: its companions too
    for obj in found:
        base = obj.key[: len(obj.key) - len(obj.extension)]
        keys_key = companions.pop((base, "keys"), None)
        headers_key = companions.pop((base, "headers"), None)
        if keys_key or headers_key:
            obj = dataclasses.replace(obj, keys_key=keys_key, headers_key=headers_key)
        listing.objects.setdefault((obj.topic, obj.partition), []).append(obj)
    for (base, kind), key in companions.items():
        if kind != "keys" or base in value_bases:  # a tombstone file has no value object
            continue
        parsed = parse_object_key(
            key,
            topics_dir=config.layout.topics_dir,
            directory_delim=config.layout.directory_delim,
            file_delim=config.layout.file_delim,
            any_topic_folder=True,
        )
        obj = SourceObject(
            key=key,
            topic=parsed.topic,
            partition=parsed.kafka_partition,
            start_offset=parsed.start_offset,
            extension=key[len(base) :],
            keys_key=key,
            headers_key=companions.get((base, "headers")),
            tombstones=True,
        )
        listing.objects.setdefault((obj.topic, obj.partition), []).append(obj)
    for objs in listing.objects.values():
        objs.sort(key=lambda o: o.order)
    return listing


@lru_cache(maxsize=8)
def _storage(settings: S3Settings) -> Storage:
    return make_storage(settings)


def source_storage(config: SourceConfig) -> Storage:
    """The storage the source reads (one client per process and settings)."""
    return _storage(config.s3_settings())


def companion_format(extension: str, config: SourceConfig) -> str:
    """The format of a keys/headers object from its extension (``.keys.avro`` -> ``avro``)."""
    ext = _COMPANION.sub(r"\2", extension) if _COMPANION.search(extension) else extension
    if ext.endswith(".avro"):
        return "avro"
    if ext.endswith(".parquet"):
        return "parquet"
    if ext in (".json", ".json.gz"):
        return "json"
    return "bytearray"


def _companion_values(
    storage: Storage, config: SourceConfig, key: str
) -> tuple[str, ConnectSchema | None, list[Any]]:
    """(format, schema, values) of a keys or headers object."""
    found = _companion(key, config.layout.file_delim)
    assert found is not None
    ext = found[2]
    fmt = companion_format(ext, config)
    file = read_file(fmt, storage.read(key), ext, b"\n")
    return fmt, file.schema, file.values


def _key_schema(fmt: str, schema: ConnectSchema | None) -> ConnectSchema | None:
    if schema is not None and fmt == "parquet" and schema.type is Type.STRUCT:
        field = schema.field("key")
        return field.schema if field is not None else None
    return schema


def read_object(
    storage: Storage,
    config: SourceConfig,
    obj: SourceObject,
    *,
    destination: str | None,
    skip: int = 0,
    stop: int | None = None,
    bound: int | None = None,
    serializer: Serializer | None = None,
    key_serializer: Serializer | None = None,
    chain: TransformationChain | None = None,
) -> Iterator[SourceRecord]:
    """The records ``skip`` .. ``stop`` of ``obj``, serialized for topic ``destination``.

    Problems (unreadable object, separator inside ByteArray records beyond ``bound``, a value
    the converter refuses) follow ``behavior.on.error``: fail raises
    :class:`~s3connect.errors.SourceObjectError`; ignore/log skip the object or record.
    """
    serialize = serializer or value_serializer(config)
    serialize_key = key_serializer or key_serializer_for(config)
    value_format = config.format.name
    keys: list[Any] | None = None
    key_schema: ConnectSchema | None = None
    headers: list[tuple[tuple[str, bytes | None], ...]] | None = None
    try:
        if obj.keys_key is not None:
            fmt, schema, values = _companion_values(storage, config, obj.keys_key)
            keys, key_schema = unwrap_keys(fmt, values), _key_schema(fmt, schema)
        if obj.headers_key is not None:
            fmt, _schema, values = _companion_values(storage, config, obj.headers_key)
            headers = unwrap_headers(fmt, values)
        if obj.tombstones:
            assert keys is not None
            file = FileRecords(None, [None] * len(keys))
        elif value_format == "json" and config.behavior_on_error != "fail":
            # A corrupted line is one record skipped, not the whole object (Confluent's doc).
            file = FileRecords(None, read_json_each(storage.read(obj.key), obj.extension))
        else:
            file = read_file(
                value_format,
                storage.read(obj.key),
                obj.extension,
                config.format.bytearray_separator.encode("utf-8"),
            )
    except (ValueError, KeyError, TypeError) as exc:
        handle(config, str(exc), obj.key)
        return
    count = len(file.values)
    for name, companion in (("keys", keys), ("headers", headers)):
        if companion is not None and len(companion) != count:
            handle(
                config,
                f"its {name} object holds {len(companion)} records, the value object {count}",
                obj.key,
            )
            return
    if value_format == "bytearray" and not obj.tombstones and _overfull(config, obj, count, bound):
        return
    end = count if stop is None else min(stop, count)
    for index in range(skip, end):
        if isinstance(file.values[index], ValueError):
            handle(config, f"record {index}: {file.values[index]}", obj.key)
            continue
        record = SinkRecord(
            obj.topic, obj.partition, obj.start_offset + index, None,
            None if keys is None else keys[index], file.values[index], key_schema, file.schema,
            () if headers is None else headers[index],
        )  # fmt: skip
        published = _publish(record, destination, chain, serialize, serialize_key, keys is not None)
        if published is None:
            continue
        if isinstance(published, str):
            handle(config, f"record {index}: {published}", obj.key)
            continue
        topic, key, value = published
        yield SourceRecord(topic, obj.partition, key, value, obj.key, index, record.headers)


def plain_bytes(config: SourceConfig) -> bool:
    """Whether records are published as the sink stored them, byte for byte: ByteArrayFormat
    objects, ByteArrayConverter values, no transforms. Such objects (without keys or headers
    objects) are read column-wise by :func:`read_values`."""
    return (
        config.format.name == "bytearray"
        and config.converters.value == "bytearray"
        and not config.routing.transforms.active
    )


def read_values(
    storage: Storage,
    config: SourceConfig,
    obj: SourceObject,
    *,
    skip: int = 0,
    stop: int | None = None,
    bound: int | None = None,
) -> pa.Array | None:
    """The values ``skip`` .. ``stop`` of a ByteArray object without keys or headers objects as
    one Arrow binary column: what :func:`read_object` publishes under :func:`plain_bytes`
    (None: the object is skipped, per ``behavior.on.error``).

    Raises:
        SourceObjectError: as :func:`read_object` does.
    """
    separator = config.format.bytearray_separator.encode("utf-8")
    try:
        values = read_bytearray_values(storage.read(obj.key), obj.extension, separator)
    except (ValueError, KeyError, TypeError) as exc:
        handle(config, str(exc), obj.key)
        return None
    if _overfull(config, obj, len(values), bound):
        return None
    end = len(values) if stop is None else min(stop, len(values))
    return values.slice(skip, max(0, end - skip))


def _overfull(config: SourceConfig, obj: SourceObject, count: int, bound: int | None) -> bool:
    """Whether a ByteArray object split into more records than it can hold (handled)."""
    if bound is None or count <= bound:
        return False
    handle(
        config,
        f"ByteArray object splits into {count} records at separator "
        f"{config.format.bytearray_separator!r} but can hold at most {bound} (from its "
        "start offset and the next object's, or flush.size): some records contain the "
        "separator and cannot be told apart",
        obj.key,
    )
    return True


def _publish(
    record: SinkRecord,
    destination: str | None,
    chain: TransformationChain | None,
    serialize: Serializer,
    serialize_key: Serializer,
    keyed: bool,
) -> tuple[str, bytes | None, bytes | None] | str | None:
    """(topic, key, value) of ``record`` as published: transformed (None: dropped), then
    serialized for its topic (the key when the object has keys, or a transform made one); the
    problem's text when a transform or converter refuses it."""
    try:
        if chain is not None:
            transformed = chain.apply(record)
            if transformed is None:
                return None
            record = transformed
        topic = record.topic if chain is not None else destination
        assert topic is not None, "no chain: every record has its topic's destination"
        value = serialize(topic, record.value_schema, record.value)
        keyed = keyed or record.key is not None or record.key_schema is not None
        key = serialize_key(topic, record.key_schema, record.key) if keyed else None
    except (ValueError, TransformationError) as exc:
        return str(exc)
    return topic, key, value


def key_serializer_for(config: SourceConfig) -> Serializer:
    """The configured ``key.converter``'s serializer."""
    c = config.converters
    return make_serializer(
        c.key,
        schemas_enable=c.key_schemas_enable,
        decimal_format=c.key_decimal_format,
        is_key=True,
        replace_null_with_default=c.key_replace_null_with_default,
    )


def value_serializer(config: SourceConfig) -> Serializer:
    """The configured ``value.converter``'s serializer."""
    return make_serializer(
        config.converters.value,
        schemas_enable=config.converters.value_schemas_enable,
        decimal_format=config.converters.value_decimal_format,
        replace_null_with_default=config.converters.value_replace_null_with_default,
    )
