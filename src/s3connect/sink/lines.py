"""The line path: runs of records written as whole columns of lines, not record by record.

The most common S3 sink configs write each value as one line, from a converter with no schema to
look into: JsonFormat from StringConverter or JsonConverter with ``schemas.enable=false``,
ByteArrayFormat from ByteArrayConverter (it refuses StringConverter's strings, as Confluent's),
into the DefaultPartitioner's one file per Kafka partition, the FieldPartitioner's files (JSON
objects), or a time-based partitioner's (Kafka or wall-clock time, or a JSON object's field); so
do JsonConverter envelopes (``schemas.enable=true``) into
AvroFormat, their "lines" being Avro datums, and into ParquetFormat, their lines being the
payloads' JSON text (:mod:`s3connect.sink.envelopes`); so do Confluent's AvroConverter's values
into ParquetFormat, their lines being rows of their values (:mod:`s3connect.sink.avro_rows`), and
into AvroFormat, their lines being their datums (:mod:`s3connect.sink.avro_datums`).
For those, a
:class:`LinePlan` turns a column of Kafka values into the column of their lines and files at
once (Arrow compute where it can), and the writer appends whole runs to the open files
(:meth:`~s3connect.sink.writer.TopicPartitionWriter.write_run`) as far as
:meth:`~s3connect.sink.rotation.Rotator.joining` finds that no rotation rule but ``flush.size``
could fire: no record objects, no per-record rotation.

It writes exactly what the per-record path writes. A run goes the per-record way instead when
any of its values is not provably written the same: a null (tombstone), bytes that are not
UTF-8 for a String, a JSON value that does not convert (it may be a dead letter), a partition
field the FieldPartitioner cannot use, a record without a Kafka timestamp; so does every record
that opens a file or rotates files.
``tests/unit/sink/test_lines.py`` runs both paths on generated records and configs and compares
objects, state and dead letters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timezone
from functools import partial
from typing import Any

import numpy as np
import pyarrow as pa

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.json import JsonConverter
from s3connect.convert.registry.base import RegistryConverter
from s3connect.convert.registry.client import TOPIC_NAME_STRATEGY
from s3connect.convert.string import StringConverter
from s3connect.errors import PartitionError
from s3connect.formats.avro import AvroFormat
from s3connect.formats.bytearray import BYTES_SCHEMA
from s3connect.formats.json import json_line
from s3connect.sink.avro_datums import registry_avro_datums
from s3connect.sink.avro_rows import registry_avro_rows
from s3connect.sink.converters import build_converter
from s3connect.sink.envelopes import SchemaLines, envelope_datums, envelope_payloads
from s3connect.sink.partitioners import (
    DefaultPartitioner,
    FieldPartitioner,
    Partitioner,
    RecordFieldTimestampExtractor,
    RecordTimestampExtractor,
    TimeBasedPartitioner,
    TimestampExtractor,
    WallclockTimestampExtractor,
    build_partitioner,
    map_field_path,
)
from s3connect.util.arrow import keep_where
from s3connect.util.jackson import JSON_ESCAPES
from s3connect.util.jackson import quote as jackson_quote
from s3connect.util.timeformat import JodaZone

__all__ = [
    "AVRO_DATUMS_PLAN",
    "AVRO_ROWS_PLAN",
    "DATUM_PLAN",
    "PAYLOAD_PLAN",
    "BatchLines",
    "LinePlan",
    "LineRun",
    "joined_lines",
    "line_plan",
]

ValueLines = Callable[[pa.RecordBatch], "pa.Array | None"]
"""The lines of a batch of Kafka rows: null where a record must go per record; None: all must."""


@dataclass(slots=True)
class LineRun:
    """Records of one open file, in offset order, with their lines (without separators).

    The Kafka columns are kept too (Arrow slices of the task's batch, not copies): a run is saved
    with them while its file is open, and becomes per-record records again when a later
    micro-batch cannot take the line path (:meth:`records`). A run picked out of records of
    several files holds the indices of its own (``picked``) and copies them out only when asked.
    """

    encoded_partition: str
    rows: pa.RecordBatch
    """``offset``, ``timestamp``, ``key``, ``value`` and ``headers`` (as :mod:`pending` saves)."""
    all_lines: pa.Array
    """The lines of ``rows``."""
    plan: str
    """The :attr:`LinePlan.name` that made the lines: another plan writes them anew."""
    picked: Any = None
    """The indices of the run's records in ``rows`` (a NumPy array); None: all of them."""

    def __len__(self) -> int:
        return int(self.rows.num_rows if self.picked is None else len(self.picked))

    @property
    def columns(self) -> pa.RecordBatch:
        """The Kafka columns of the run's records."""
        return self.rows if self.picked is None else self.rows.take(pa.array(self.picked))

    @property
    def lines(self) -> pa.Array:
        """The run's lines."""
        return self.all_lines if self.picked is None else self.all_lines.take(self.picked)

    @property
    def first_offset(self) -> int:
        return self._offset(0)

    @property
    def last_offset(self) -> int:
        return self._offset(-1)

    def _offset(self, i: int) -> int:
        at = i if self.picked is None else int(self.picked[i])
        return int(self.rows.column("offset")[at].as_py())


def joined_lines(lines: pa.Array, separator: bytes) -> Iterator[memoryview | bytes]:
    """``lines`` as the bytes of a file, each line followed by ``separator``: the joined lines
    as a view of Arrow's buffer (not copied into Python), then the last separator."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    as_list = pa.ListArray.from_arrays(pa.array([0, len(lines)], pa.int32()), lines)
    yield memoryview(pc.binary_join(as_list, pa.scalar(separator, pa.binary()))[0].as_buffer())
    yield separator


@dataclass(frozen=True, slots=True)
class BatchLines:
    """A batch's lines and the file each goes to.

    Attributes:
        lines: Each record's line; null where the record must go per record.
        files: Each record's index into :attr:`partitions` (meaningless where the line is null).
        partitions: The distinct encoded partitions of the batch's records.
        timestamps: Each record's timestamp from the partitioner's extractor; None without one.
        schema: The value schema of every record with a line, where the batch decides it (Avro
            datums, Parquet payloads: :mod:`s3connect.sink.envelopes`); None: the plan's.
    """

    lines: pa.Array
    files: Any
    """An ``int32`` NumPy array."""
    partitions: list[str]
    timestamps: Any = None
    """An ``int64`` NumPy array, or None."""
    schema: ConnectSchema | None = None

    def slice(self, start: int, end: int) -> BatchLines:
        """The records from ``start`` to ``end``."""
        stamps = None if self.timestamps is None else self.timestamps[start:end]
        lines = self.lines.slice(start, end - start)
        return BatchLines(lines, self.files[start:end], self.partitions, stamps, self.schema)


BatchPlan = Callable[[pa.RecordBatch, str, int, int], "BatchLines | None"]
"""A batch of Kafka rows of one topic-partition, and the time now -> its lines and files; None:
the whole batch goes per record."""
Placer = Callable[[pa.RecordBatch, str, int, int], "tuple[pa.DictionaryArray, Any]"]
"""A batch of Kafka rows, its topic-partition and the time now -> each record's encoded
partition (null: per record) and the extractor's timestamps (None without one)."""


@dataclass(frozen=True, slots=True)
class LinePlan:
    """How one config's records become lines, a column at a time.

    Attributes:
        name: Names the converter and format pair (saved with open runs).
        schema: The value schema the converter gives every record (None: schemaless).
        separator: What follows each line in a file.
        lines: The lines and files of a batch of Kafka rows of one topic-partition, at a
            time (``value``, and ``line`` and ``fields`` when Spark computed them:
            :mod:`s3connect.spark.jvm_lines`).
        field_paths: The keys of each ``partition.field.name`` (FieldPartitioner), for the JVM
            to look up; empty for the DefaultPartitioner.
    """

    name: str
    schema: ConnectSchema | None
    separator: bytes
    lines: BatchPlan
    field_paths: tuple[tuple[str, ...], ...] = ()


def line_plan(config: SinkConfig) -> LinePlan | None:
    """The line path for ``config``; None when records must go one by one."""
    if not _eligible(config):
        return None
    partitioner, extractor = build_partitioner(config)
    converter, fmt = config.converters.value, config.format.name
    json_values = converter == "json" and not config.converters.value_schemas_enable
    if isinstance(partitioner, FieldPartitioner):
        if fmt != "json" or not json_values:
            return None  # only JSON objects have fields to partition by
        paths = tuple(tuple(map_field_path(name)) for name in partitioner.field_names)
        return LinePlan("json-json", None, b"\n", _json_field_lines(partitioner), paths)
    if isinstance(partitioner, TimeBasedPartitioner) and isinstance(
        extractor, RecordFieldTimestampExtractor
    ):
        if fmt != "json" or not json_values:
            return None  # only JSON objects have fields to take the time from
        paths = (tuple(map_field_path(extractor.field_name)),)
        lines = _json_time_field_lines(partitioner, extractor)
        return LinePlan("json-json", None, b"\n", lines, paths)
    place = _placer(partitioner, extractor)
    if place is None:
        return None
    if fmt == "bytearray" and converter == "bytearray":
        # (StringConverter's strings: ByteArrayFormat refuses each, per record, as Confluent's)
        sep = config.format.bytearray_separator.encode("utf-8")
        return LinePlan("bytearray-bytearray", BYTES_SCHEMA, sep, _placed(_raw_lines, place))
    if fmt == "json" and converter == "string":
        lines = _placed(_quoted_lines, place)
        return LinePlan("string-json", StringConverter.SCHEMA, b"\n", lines)
    if fmt == "json" and json_values:
        return LinePlan("json-json", None, b"\n", _placed(_json_lines, place))
    envelopes = config.converters.value_schemas_enable
    # (replace.null.with.default=false: a null payload is no longer its schema's default)
    if converter == "json" and envelopes and config.converters.value_replace_null_with_default:
        if fmt == "avro":
            avro = AvroFormat(config.format.avro_codec, avro_data=config.format.avro_data)
            return LinePlan(
                DATUM_PLAN, None, b"", _placed_with_schema(envelope_datums(avro), place)
            )
        if fmt == "parquet":
            payloads = _placed_with_schema(envelope_payloads(), place)
            return LinePlan(PAYLOAD_PLAN, None, b"\n", payloads)
    # (the JVM reads each value with its writer schema, found under TopicNameStrategy's subject)
    reading = config.registry.value_read
    plain = not reading.use_latest_version and reading.subject_name_strategy == TOPIC_NAME_STRATEGY
    if converter == "avro" and config.registry.value is not None and plain:
        values = build_converter(config, is_key=False)
        if fmt == "parquet":
            rows = registry_avro_rows(values, config.format.avro_data)
            return LinePlan(AVRO_ROWS_PLAN, None, b"", _placed_with_schema(rows, place))
        if fmt == "avro" and isinstance(values, RegistryConverter):
            datums = registry_avro_datums(values, config.format.avro_data)
            return LinePlan(AVRO_DATUMS_PLAN, None, b"", _placed_with_schema(datums, place))
    return None


DATUM_PLAN = "json-avro"
"""The plan whose lines are Avro datums (a file of them: AvroFormat.write_datums)."""
PAYLOAD_PLAN = "json-parquet"
"""The plan whose lines are envelope payloads (a file of them: ParquetFormat.write_payloads)."""
AVRO_DATUMS_PLAN = "avro-avro"
"""The plan whose lines are AvroConverter's datums as they are (a file of them:
AvroFormat.write_datums)."""
AVRO_ROWS_PLAN = "avro-parquet"
"""The plan whose lines are rows of AvroConverter's datums as Parquet's columns (a file of them:
ParquetFormat.write_payloads)."""


def _eligible(config: SinkConfig) -> bool:
    """Values and Kafka timestamps alone decide the files: no transforms, no keys or headers
    files, a built-in partitioner (no schema affix) and format, a key converter that cannot
    fail the batch (a registry one can, while it is down) and a header converter that cannot
    fail a record (Kafka's number and Boolean ones can: every record's headers are converted)."""
    partitioner = config.partitioner
    return (
        not config.transforms.chain()
        and not config.keys_headers.store_kafka_keys
        and not config.keys_headers.store_kafka_headers
        and partitioner.plugin is None
        and partitioner.schema_partition_affix_type == "NONE"
        and config.format.plugin is None
        and config.converters.key in ("json", "string", "bytearray")
        and config.converters.header in ("simple", "string", "bytearray")
    )


def _placer(partitioner: Partitioner, extractor: TimestampExtractor | None) -> Placer | None:
    """Where the records of a batch go, column-wise: the DefaultPartitioner's one file, or a
    time-based partitioner's buckets of the Kafka timestamps or the wall clock."""
    if isinstance(partitioner, DefaultPartitioner):
        return _default_files(partitioner)
    if isinstance(partitioner, TimeBasedPartitioner) and isinstance(
        extractor, RecordTimestampExtractor | WallclockTimestampExtractor
    ):
        return _time_files(partitioner, isinstance(extractor, WallclockTimestampExtractor))
    return None


def _placed(value_lines: ValueLines, place: Placer) -> BatchPlan:
    """``value_lines`` going to the files ``place`` finds."""

    def batch(rows: pa.RecordBatch, topic: str, partition: int, now_ms: int) -> BatchLines | None:
        lines = value_lines(rows)
        if lines is None:
            return None
        encoded, timestamps = place(rows, topic, partition, now_ms)
        return _with_files(lines, encoded, timestamps)

    return batch


def _placed_with_schema(schema_lines: SchemaLines, place: Placer) -> BatchPlan:
    """Lines of one value schema per batch going to the files ``place`` finds."""

    def batch(rows: pa.RecordBatch, topic: str, partition: int, now_ms: int) -> BatchLines | None:
        found = schema_lines(rows, topic)
        if found is None:
            return None
        encoded, timestamps = place(rows, topic, partition, now_ms)
        return dataclasses.replace(_with_files(found[0], encoded, timestamps), schema=found[1])

    return batch


def _default_files(default: DefaultPartitioner) -> Placer:
    """The DefaultPartitioner: every record of a Kafka partition in its one file."""

    def place(rows: pa.RecordBatch, topic: str, partition: int, now_ms: int) -> tuple[Any, Any]:
        record = SinkRecord(topic, partition, 0, None, None, None)
        indices = pa.array(np.zeros(rows.num_rows, np.int32))
        encoded = pa.array([default.encode_partition(record, 0)], pa.string())
        return pa.DictionaryArray.from_arrays(indices, encoded), None

    return place


def _time_files(partitioner: TimeBasedPartitioner, wallclock: bool) -> Placer:
    """A time-based partitioner by the Kafka timestamps or the wall clock."""

    def place(rows: pa.RecordBatch, topic: str, partition: int, now_ms: int) -> tuple[Any, Any]:
        n = rows.num_rows
        if wallclock:
            stamps, known = np.full(n, now_ms, np.int64), np.ones(n, bool)
        else:
            column = rows.column("timestamp")
            stamps = column.fill_null(0).to_numpy().astype(np.int64)
            known = column.is_valid().to_numpy(zero_copy_only=False)
        return _time_buckets(partitioner, stamps, known), stamps

    return place


def _time_buckets(partitioner: TimeBasedPartitioner, stamps: Any, known: Any) -> pa.DictionaryArray:
    """The encoded partitions of the instants ``stamps`` (null where not ``known``): records
    whose local time falls in the same bucket (Java's truncating division) share the file,
    encoded once per bucket."""
    duration = partitioner.partition_duration_ms
    known = known & (stamps > _FIRST_MS) & (stamps < _LAST_MS)  # else per record: an error there
    local = np.where(known, stamps, 0)
    local += _offsets(partitioner.zone, local)
    buckets = np.where(local >= 0, local // duration, -(-local // duration))
    _, first, inverse = np.unique(buckets, return_index=True, return_inverse=True)
    names: list[str | None] = []
    for i in first.tolist():
        try:
            names.append(partitioner.encode_timestamp(int(stamps[i])))
        except ValueError:  # out of Joda's range: per record (a partition error there)
            names.append(None)
    indices = pa.array(inverse.astype(np.int32).ravel(), mask=~known)
    return pa.DictionaryArray.from_arrays(indices, pa.array(names, pa.string()))


_DAY_MS = 86_400_000
_FIRST_MS, _LAST_MS = -62_135_596_800_000 + _DAY_MS, 253_402_300_799_999 - _DAY_MS
"""Instants in years 1 to 9999 (a day inside): what the zone arithmetic takes."""


def _offsets(zone: JodaZone, instants: Any) -> Any:
    """The zone's offset from UTC at each instant (ms, NumPy): looked up once per distinct
    minute whose start and end have the same offset (no zone has two transitions a minute
    apart), per instant in a minute with a transition."""
    if isinstance(zone.tz, timezone):  # UTC or a fixed offset
        return np.full(len(instants), zone.offset_ms(0), np.int64)
    minutes, inverse = np.unique(instants // 60_000, return_inverse=True)
    starts = np.array([zone.offset_ms(m * 60_000) for m in minutes.tolist()], np.int64)
    ends = np.array([zone.offset_ms(m * 60_000 + 59_999) for m in minutes.tolist()], np.int64)
    offsets = starts[inverse.ravel()]
    for i in np.flatnonzero((starts != ends)[inverse.ravel()]).tolist():
        offsets[i] = zone.offset_ms(int(instants[i]))
    return offsets


def _raw_lines(rows: pa.RecordBatch) -> pa.Array | None:
    """ByteArrayConverter -> ByteArrayFormat: the value's bytes (a null: per record)."""
    return rows.column("value")


def _quoted_lines(rows: pa.RecordBatch) -> pa.Array | None:
    """StringConverter -> JsonFormat: each text as a JSON string, as Jackson writes it: the
    characters to escape found once over the batch's bytes, each replaced in one pass."""
    import pyarrow.compute as pc

    values = rows.column("value")
    text = _utf8_text(values)
    if text is None:
        return None
    for char in _escaped_chars(values):
        escape = jackson_quote(char)[1:-1]
        if char < " ":  # as a pattern (a NUL ends Arrow's C string); RE2 rewrites "\\" as "\"
            pattern, escape = f"\\x{{{ord(char):x}}}", escape.replace("\\", "\\\\")
            text = pc.replace_substring_regex(text, pattern, escape)
        else:
            text = pc.replace_substring(text, char, escape)
    quote, empty = pa.scalar(b'"', pa.binary()), pa.scalar(b"", pa.binary())
    return pc.binary_join_element_wise(quote, text.cast(pa.binary()), quote, empty)


def _escaped_chars(values: pa.Array) -> list[str]:
    """The distinct characters of ``values`` (UTF-8) that Jackson escapes: backslash first
    (the other escapes add backslashes), then quote, controls and those beyond the BMP."""
    offsets = np.frombuffer(values.buffers()[1], np.int32)[values.offset :][: len(values) + 1]
    data = np.frombuffer(values.buffers()[2], np.uint8)[offsets[0] : offsets[-1]]
    controls = data < 0x20
    found = np.unique(data[controls]).tolist() if controls.any() else []
    found += [byte for byte in _PRINTABLE_ESCAPES if (data == byte).any()]
    chars = sorted(map(chr, found), key=lambda c: c != "\\")
    leads = np.flatnonzero(data >= 0xF0)  # a 4-byte UTF-8 sequence: a character beyond the BMP
    if len(leads):
        packed = data[leads].astype(np.uint32) << 24
        for i in range(1, 4):
            packed |= data[leads + i].astype(np.uint32) << (24 - 8 * i)
        chars += [seq.to_bytes(4, "big").decode() for seq in np.unique(packed).tolist()]
    return chars


_PRINTABLE_ESCAPES = sorted(byte for byte in JSON_ESCAPES if byte >= 0x20)
"""The bytes beyond the controls that Jackson escapes (quote, backslash)."""
assert set(JSON_ESCAPES) == set(range(0x20)) | set(_PRINTABLE_ESCAPES)


def _utf8_text(values: pa.Array) -> pa.Array | None:
    """Binary ``values`` as strings; None when one is not UTF-8."""
    try:
        return values.cast(pa.string())
    except pa.ArrowInvalid:
        return None


def _json_lines(rows: pa.RecordBatch) -> pa.Array | None:
    """JsonConverter (schemas.enable=false) -> JsonFormat: each value read as Kafka reads it and
    written as Jackson writes it (Kafka's own classes did it in Spark when there is a ``line``
    column); a value that does not convert, or a null or blank one, per record."""
    if "line" in rows.schema.names:
        return rows.column("line")
    return pa.array(_json_in_python(rows)[0], pa.binary())


def _json_in_python(
    rows: pa.RecordBatch, key: Callable[[SinkRecord], Any] | None = None
) -> tuple[list[bytes | None], list[Any]]:
    """What the JVM functions give, computed in the Python workers: each value's line (read as
    Kafka's JsonConverter reads it, written as Jackson writes it) and ``key`` of a record
    holding it (its encoded partition, its time); both None where either cannot be had (a null
    or blank value, one that does not convert, a key that raises PartitionError)."""
    lines: list[bytes | None] = []
    keys: list[Any] = []
    for data in rows.column("value").to_numpy(zero_copy_only=False).tolist():
        line = found = None
        try:
            value, _ = _SCHEMALESS_JSON.to_connect("", data)
            if value is not None:
                found = None if key is None else key(_named(value))
                line = json_line(value, None)
        except (ValueError, PartitionError):
            line = found = None
        lines.append(line)
        keys.append(found)
    return lines, keys


_SCHEMALESS_JSON = JsonConverter(schemas_enable=False)


def _json_field_lines(field: FieldPartitioner) -> BatchPlan:
    """JsonConverter (schemas.enable=false) -> JsonFormat by the FieldPartitioner: each value's
    line and its fields' encoded partition; per record where either cannot be had (a value
    that is not an object, a field missing, null, or of a type the partitioner refuses)."""

    def encode(values: list[Any]) -> str:
        return field.encode_map_values(_named(None), values)

    def batch(rows: pa.RecordBatch, topic: str, partition: int, now_ms: int) -> BatchLines | None:
        if "line" in rows.schema.names:
            lines = rows.column("line")
            encoded = _each_distinct(rows.column("fields"), encode, pa.string())
        else:
            found, keys = _json_in_python(rows, partial(field.encode_partition, now_ms=0))
            lines = pa.array(found, pa.binary())
            encoded = pa.array(keys, pa.string()).dictionary_encode()
        return _with_files(lines, encoded)

    return batch


def _json_time_field_lines(
    partitioner: TimeBasedPartitioner, extractor: RecordFieldTimestampExtractor
) -> BatchPlan:
    """JsonConverter (schemas.enable=false) -> JsonFormat by a time-based partitioner over a
    value field (``timestamp.extractor=RecordField``): each value's line and the field's time;
    per record where either cannot be had (the extractor refuses the field)."""

    def batch(rows: pa.RecordBatch, topic: str, partition: int, now_ms: int) -> BatchLines | None:
        if "line" in rows.schema.names:
            lines, times = rows.column("line"), _field_times(rows.column("fields"), extractor)
        else:
            found, keys = _json_in_python(rows, partial(extractor.extract, now_ms=0))
            lines, times = pa.array(found, pa.binary()), pa.array(keys, pa.int64())
        stamps = times.fill_null(0).to_numpy().astype(np.int64)
        known = times.is_valid().to_numpy(zero_copy_only=False)
        return _with_files(lines, _time_buckets(partitioner, stamps, known), stamps)

    return batch


def _field_times(fields: pa.Array, extractor: RecordFieldTimestampExtractor) -> pa.Array:
    """The instants of the JVM's field values (``[value]`` as Jackson writes it): a column of
    whole numbers cast at once (a Java long is the instant), else each distinct value through
    the extractor (a decimal, an ISO text); null where it refuses one."""
    import pyarrow.compute as pc

    texts = fields.cast(pa.string())
    try:
        return pc.utf8_slice_codeunits(texts, 1, -1).cast(pa.int64())
    except pa.ArrowInvalid:
        pass

    def extract(values: list[Any]) -> int:
        return extractor.extract(_named(_at(extractor.field_name, values)), 0)

    return _each_distinct(texts, extract, pa.int64()).dictionary_decode()


def _at(name: str, values: list[Any]) -> dict[str, Any]:
    """A map value holding ``values[0]`` at the field ``name`` (its key path)."""
    value: Any = values[0]
    for key in reversed(map_field_path(name)):
        value = {key: value}
    return value  # type: ignore[no-any-return]


def _named(value: Any) -> SinkRecord:
    """A record holding ``value``, for the partitioner (errors are not shown: per record)."""
    return SinkRecord("", 0, 0, None, None, value)


def _each_distinct(
    fields: pa.Array, key: Callable[[list[Any]], Any], key_type: pa.DataType
) -> pa.DictionaryArray:
    """``key`` of the JVM's field values (a JSON array of each record's field values, as Jackson
    writes what JsonConverter read), worked out once per distinct array; null where ``key``
    raises PartitionError."""
    import json

    distinct = fields.dictionary_encode()
    keys: list[Any] = []
    for text in distinct.dictionary.to_pylist():
        try:
            keys.append(key(json.loads(text)))
        except PartitionError:
            keys.append(None)
    return pa.DictionaryArray.from_arrays(distinct.indices, pa.array(keys, key_type))


def _with_files(lines: pa.Array, encoded: pa.DictionaryArray, timestamps: Any = None) -> BatchLines:
    """``lines`` going to the files ``encoded`` names, null wherever either is null; one index
    per distinct encoded partition (two field values may encode alike: ``true``, "true")."""

    codes: dict[str, int] = {}
    names = encoded.dictionary.to_pylist()
    remap = np.array(
        [-1 if n is None else codes.setdefault(n, len(codes)) for n in names], np.int32
    )
    indices = encoded.indices.fill_null(0).to_numpy().astype(np.int32, copy=False)
    files = remap[indices] if len(remap) else np.full(len(indices), -1, np.int32)
    valid = np.logical_and(lines.is_valid().to_numpy(zero_copy_only=False), files >= 0)
    valid &= encoded.indices.is_valid().to_numpy(zero_copy_only=False)
    if not valid.all():
        lines = keep_where(pa.array(valid), lines)
    return BatchLines(lines, files, list(codes), timestamps)
