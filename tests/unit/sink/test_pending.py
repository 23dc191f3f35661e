"""Open records saved in the checkpoint: converted records written before the layer packages
(schema classes pickled under ``s3connect.schema``) still load without converting again."""

from __future__ import annotations

import struct
import sys
import types

import pyarrow as pa
import pytest

from s3connect.connect import schema as schema_module
from s3connect.connect.records import RawRecord, SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.sink.pending import decode_pending, encode_pending
from s3connect.sink.writer import PendingRecord

VALUE_SCHEMA = ConnectSchema(
    Type.STRUCT, name="User", fields=(Field("id", ConnectSchema(Type.INT64)),), version=2
)


def _pending(offset: int) -> PendingRecord:
    raw = RawRecord("t", 0, offset, 1_000 + offset, None, b'{"id":%d}' % offset)
    converted = SinkRecord("t", 0, offset, raw.timestamp, None, {"id": offset}, None, VALUE_SCHEMA)
    return PendingRecord(raw, "partition=0", converted)


def _pickled(chunk: bytes) -> bytes:
    """The pickle of a chunk: magic, three sizes, the Arrow stream, the LZ4 pickle."""
    arrow_size, pickled_size, packed_size = struct.unpack("<QQQ", chunk[8:32])
    packed = chunk[32 + arrow_size : 32 + arrow_size + packed_size]
    return bytes(pa.decompress(packed, pickled_size, codec="lz4", asbytes=True))


def test_converted_records_round_trip() -> None:
    chunk = encode_pending([_pending(7), _pending(8)])
    loaded = decode_pending("t", 0, chunk)
    assert [p.converted for p in loaded] == [_pending(7).converted, _pending(8).converted]
    assert [p.encoded_partition for p in loaded] == ["partition=0", "partition=0"]


def test_chunk_pickled_under_the_old_schema_module_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    old = types.ModuleType("s3connect.schema")
    for cls in (ConnectSchema, Field, Type):
        setattr(old, cls.__name__, cls)
        monkeypatch.setattr(cls, "__module__", "s3connect.schema")
    monkeypatch.setitem(sys.modules, "s3connect.schema", old)
    chunk = encode_pending([_pending(7)])
    monkeypatch.undo()
    assert b"s3connect.schema\x94" in _pickled(chunk)  # the class's module as then named
    assert "s3connect.schema" not in sys.modules
    (loaded,) = decode_pending("t", 0, chunk)
    assert loaded.converted == _pending(7).converted
    assert loaded.converted is not None
    assert type(loaded.converted.value_schema) is schema_module.ConnectSchema
