"""The line path: runs of records written as whole columns of lines, not record by record.

The most common S3 sink configs write each value as one line (JsonFormat, ByteArrayFormat) from
a converter with no schema to look into (StringConverter, ByteArrayConverter, JsonConverter with
``schemas.enable=false``), into the DefaultPartitioner's one file per Kafka partition, rotated by
``flush.size`` only. For those, a :class:`LinePlan` turns a column of Kafka values into the
column of their lines at once (Arrow compute where it can), and the writer appends the whole run
to its open file (:meth:`~s3connect.sink.writer.TopicPartitionWriter.write_run`): no record
objects, no per-record rotation.

It writes exactly what the per-record path writes. A run goes the per-record way instead when
any of its values is not provably written the same: a null (tombstone), bytes that are not
UTF-8 for a String, a JSON value that does not convert (it may be a dead letter).
``tests/unit/sink/test_lines.py`` runs both paths on generated records and configs and compares
objects, state and dead letters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.json import JsonConverter
from s3connect.convert.string import StringConverter
from s3connect.formats.bytearray import BYTES_SCHEMA
from s3connect.formats.json import json_line
from s3connect.sink.partitioners import DefaultPartitioner
from s3connect.util.jackson import JSON_ESCAPES
from s3connect.util.jackson import quote as jackson_quote

__all__ = ["LinePlan", "LineRun", "joined_lines", "line_plan"]


@dataclass(slots=True)
class LineRun:
    """Consecutive records of one open file, with their lines (without separators).

    The Kafka columns are kept too (Arrow slices of the task's batch, not copies): a run is saved
    with them while its file is open, and becomes per-record records again when a later
    micro-batch cannot take the line path (:meth:`records`).
    """

    encoded_partition: str
    columns: pa.RecordBatch
    """``offset``, ``timestamp``, ``key``, ``value`` and ``headers`` (as :mod:`pending` saves)."""
    lines: pa.Array
    plan: str
    """The :attr:`LinePlan.name` that made the lines: another plan writes them anew."""

    def __len__(self) -> int:
        return int(self.columns.num_rows)

    @property
    def first_offset(self) -> int:
        return int(self.columns.column("offset")[0].as_py())

    @property
    def last_offset(self) -> int:
        return int(self.columns.column("offset")[-1].as_py())


def joined_lines(lines: pa.Array, separator: bytes) -> Iterator[memoryview | bytes]:
    """``lines`` as the bytes of a file, each line followed by ``separator``: the joined lines
    as a view of Arrow's buffer (not copied into Python), then the last separator."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    as_list = pa.ListArray.from_arrays(pa.array([0, len(lines)], pa.int32()), lines)
    yield memoryview(pc.binary_join(as_list, pa.scalar(separator, pa.binary()))[0].as_buffer())
    yield separator


@dataclass(frozen=True, slots=True)
class LinePlan:
    """How one config's records become lines, a column at a time.

    Attributes:
        name: Names the converter and format pair (saved with open runs).
        schema: The value schema the converter gives every record (None: schemaless).
        separator: What follows each line in a file.
        lines: The lines of a batch of Kafka rows (``value``, and ``line`` when Spark computed
            them: :mod:`s3connect.spark.jvm_lines`): null where a record must take the
            per-record path; None: the whole batch must.
        encode_partition: Kafka partition -> the DefaultPartitioner's encoded partition.
    """

    name: str
    schema: ConnectSchema | None
    separator: bytes
    lines: Callable[[pa.RecordBatch], pa.Array | None]
    encode_partition: Callable[[str, int], str]


def line_plan(config: SinkConfig) -> LinePlan | None:
    """The line path for ``config``; None when records must go one by one."""
    if not _eligible(config):
        return None
    default = DefaultPartitioner(directory_delim=config.layout.directory_delim)

    def encode(topic: str, partition: int) -> str:
        record = SinkRecord(topic, partition, 0, None, None, None, None, None, ())
        return default.encode_partition(record, 0)

    converter, fmt = config.converters.value, config.format.name
    if fmt == "bytearray" and converter in ("bytearray", "string"):
        sep = config.format.bytearray_separator.encode("utf-8")
        if converter == "bytearray":
            return LinePlan("bytearray-bytearray", BYTES_SCHEMA, sep, _raw_lines, encode)
        return LinePlan("string-bytearray", StringConverter.SCHEMA, sep, _utf8_lines, encode)
    if fmt == "json" and converter == "string":
        return LinePlan("string-json", StringConverter.SCHEMA, b"\n", _quoted_lines, encode)
    if fmt == "json" and converter == "json" and not config.converters.value_schemas_enable:
        return LinePlan("json-json", None, b"\n", _json_lines(), encode)
    return None


def _eligible(config: SinkConfig) -> bool:
    """Values alone decide the files: no transforms, no keys or headers files, the Default
    partitioner (no plugin, no schema affix), rotation by flush.size only, a built-in format,
    and a key converter that cannot fail the batch (a registry one can, while it is down)."""
    rotation, partitioner = config.rotation, config.partitioner
    return (
        not config.transforms.chain()
        and not config.keys_headers.store_kafka_keys
        and not config.keys_headers.store_kafka_headers
        and partitioner.plugin is None
        and partitioner.name == "default"
        and partitioner.schema_partition_affix_type == "NONE"
        and rotation.rotate_interval_ms <= 0
        and rotation.rotate_schedule_interval_ms <= 0
        and config.format.plugin is None
        and config.converters.key in ("json", "string", "bytearray")
    )


def _raw_lines(rows: pa.RecordBatch) -> pa.Array | None:
    """ByteArrayConverter -> ByteArrayFormat: the value's bytes (a null: per record)."""
    return rows.column("value")


def _utf8_lines(rows: pa.RecordBatch) -> pa.Array | None:
    """StringConverter -> ByteArrayFormat: the text's UTF-8, the value's bytes when they are
    UTF-8 (else Java's decoding replaces malformed bytes: per record)."""
    values = rows.column("value")
    return None if _utf8_text(values) is None else values


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
    import numpy as np

    offsets = np.frombuffer(values.buffers()[1], np.int32)[values.offset :][: len(values) + 1]
    data = np.frombuffer(values.buffers()[2], np.uint8)[offsets[0] : offsets[-1]]
    found = np.unique(data[_ESCAPED_BYTES[data]]).tolist()
    chars = sorted(map(chr, found), key=lambda c: c != "\\")
    leads = np.flatnonzero(data >= 0xF0)  # a 4-byte UTF-8 sequence: a character beyond the BMP
    if len(leads):
        sequences = np.unique(np.stack([data[leads + i] for i in range(4)], axis=1), axis=0)
        chars += [bytes(seq).decode() for seq in sequences.tolist()]
    return chars


def _escaped_bytes() -> Any:
    """A table of the 256 byte values: True for the ASCII ones Jackson escapes."""
    import numpy as np

    table = np.zeros(256, bool)
    table[list(JSON_ESCAPES)] = True
    return table


_ESCAPED_BYTES = _escaped_bytes()


def _utf8_text(values: pa.Array) -> pa.Array | None:
    """Binary ``values`` as strings; None when one is not UTF-8."""
    try:
        return values.cast(pa.string())
    except pa.ArrowInvalid:
        return None


def _json_lines() -> Callable[[pa.RecordBatch], pa.Array | None]:
    """JsonConverter (schemas.enable=false) -> JsonFormat: each value read as Kafka reads it and
    written as Jackson writes it (Kafka's own classes did it in Spark when there is a ``line``
    column); a value that does not convert, or a null or blank one, per record."""
    converter = JsonConverter(schemas_enable=False)

    def line(data: bytes | None) -> bytes | None:
        try:
            value, _ = converter.to_connect("", data)
        except ValueError:
            return None
        return None if value is None else json_line(value, None)

    def lines(rows: pa.RecordBatch) -> pa.Array | None:
        if "line" in rows.schema.names:
            return rows.column("line")
        values = rows.column("value").to_numpy(zero_copy_only=False).tolist()
        return pa.array(map(line, values), pa.binary())

    return lines
