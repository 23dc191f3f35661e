"""Schemaless JSON through Kafka's JsonConverter and Confluent's JsonFormat, ours against the
real Java classes on the same generated values: the same line, byte for byte (key order of
Java's ``HashMap``, Java's number text, Jackson's escapes), or an error on both sides."""

from __future__ import annotations

import base64
import collections
import io
import random
import subprocess
from pathlib import Path

import pytest

from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.formats.common import GzipStream
from s3connect.formats.json import JsonFormat
from tests.reference.java import json_format_lines
from tests.reference.random_json import generated
from tests.unit.convert.random_connect import Names, random_schema, random_value


def ours(value: bytes | None) -> bytes | str:
    try:
        connect, schema = JsonConverter(schemas_enable=False).to_connect("topic", value)
    except ValueError as exc:
        return str(exc)
    record = SinkRecord("topic", 0, 0, None, None, connect, None, schema)
    out = io.BytesIO()
    JsonFormat().write([record], out)
    return out.getvalue()


@pytest.mark.parametrize("seed", range(4))
def test_json_format_writes_what_kafka_and_confluent_write(seed: int, tmp_path: Path) -> None:
    values = generated(seed, 500)
    reference = json_format_lines(values, tmp_path)
    mismatched = []
    for value, want in zip(values, reference, strict=True):
        got = ours(value)
        if isinstance(want, bytes) != isinstance(got, bytes) or (
            isinstance(want, bytes) and got != want
        ):
            mismatched.append((value, want, got))
    shown = (f"{v!r}\n  java: {w!r}\n  ours: {g!r}" for v, w, g in mismatched[:8])
    assert not mismatched, "\n".join(shown)


REMOVED_LIMITS = (
    # Confluent's JsonFormat hands a value that is not a Struct to Jackson as is: a Struct inside
    # (an array of structs, a map of structs) fails the task. We write it as the JsonConverter.
    "No serializer found for class org.apache.kafka.connect.data.Struct",
    # Kafka's JsonConverter cannot read an envelope whose schema has a struct-typed default.
    "Invalid default value",
)


def ours_enveloped(value: bytes, decimal_format: str) -> bytes | str:
    try:
        connect, schema = JsonConverter().to_connect("topic", value)
    except ValueError as exc:
        return str(exc)
    record = SinkRecord("topic", 0, 0, None, None, connect, None, schema)
    out = io.BytesIO()
    try:
        JsonFormat(decimal_format=decimal_format).write([record], out)
    except ValueError as exc:
        return str(exc)
    return out.getvalue()


@pytest.mark.parametrize(("seed", "decimal_format"), [(0, "BASE64"), (1, "NUMERIC"), (2, "BASE64")])
def test_enveloped_json_lines_are_what_kafka_and_confluent_write(
    seed: int, decimal_format: str, tmp_path: Path
) -> None:
    """JSON with a schema (the envelope) of random Connect schemas: structs written by the
    format's own JsonConverter, other values by Jackson."""
    rng, names = random.Random(seed), Names()
    values: list[bytes | None] = []
    for _ in range(150):
        schema = random_schema(rng, names)
        for _ in range(3):
            data = JsonConverter().from_connect("topic", schema, random_value(rng, schema))
            values.append(data)
    config = {"schemas.enable": "true", "format.decimal.format": decimal_format}
    reference = json_format_lines(values, tmp_path, config)
    mismatched, removed = [], collections.Counter[str]()
    for value, want in zip(values, reference, strict=True):
        got = ours_enveloped(value or b"", decimal_format)
        if isinstance(want, str) and isinstance(got, bytes) and want.startswith(REMOVED_LIMITS):
            removed[want[:40]] += 1
        elif got != want and not (isinstance(got, str) and isinstance(want, str)):
            mismatched.append((value, want, got))
    shown = (f"{v!r}\n  java: {w!r}\n  ours: {g!r}" for v, w, g in mismatched)
    assert not mismatched, f"{len(mismatched)} of {len(values)}:\n" + "\n".join(list(shown)[:6])
    assert sum(removed.values()) < len(values) // 5, removed  # most values are compared


_ZEROS = (
    b'{"schema":{"type":"struct","fields":[{"type":"double","optional":false,"field":"d"},'
    b'{"type":"float","optional":false,"field":"f"}],"optional":false},'
    b'"payload":{"d":%s,"f":%s}}'
)


def test_signed_zeros_in_envelopes_are_what_kafka_reads(tmp_path: Path) -> None:
    """A JSON number is a ``BigDecimal`` first: ``-0.0`` is read as 0.0, an underflow keeps
    its sign (``-1e-400`` is -0.0, and ``-1e-50`` as a float)."""
    values: list[bytes | None] = [
        _ZEROS % (b"-0.0", b"-0.0"),
        _ZEROS % (b"-1e-400", b"-1e-50"),
        _ZEROS % (b"-0", b"1e-50"),
        b'{"schema":{"type":"double","optional":false},"payload":-0.0}',
        b'{"schema":{"type":"double","optional":false},"payload":-1e-400}',
    ]
    reference = json_format_lines(values, tmp_path, {"schemas.enable": "true"})
    assert reference == [
        b'{"d":0.0,"f":0.0}\n', b'{"d":-0.0,"f":-0.0}\n', b'{"d":0.0,"f":0.0}\n',
        b"0.0\n", b"-0.0\n",
    ]  # fmt: skip
    assert [ours_enveloped(v or b"", "BASE64") for v in values] == reference


def ours_written_back(value: bytes, decimal_format: str) -> bytes | str:
    converter = JsonConverter(decimal_format=decimal_format)
    try:
        connect, schema = converter.to_connect("topic", value)
        return converter.from_connect("topic", schema, connect) or b"null"
    except ValueError as exc:
        return str(exc)


@pytest.mark.parametrize(("seed", "decimal_format"), [(7, "BASE64"), (8, "NUMERIC")])
def test_envelopes_written_back_are_what_kafka_writes(
    seed: int, decimal_format: str, tmp_path: Path
) -> None:
    """What the S3 source publishes with ``JsonConverter`` and ``schemas.enable=true``: the
    envelope (schema JSON, defaults in the converter's decimal format, payload) as Kafka's
    ``fromConnectData`` writes it for the same record."""
    rng, names = random.Random(seed), Names()
    values: list[bytes | None] = []
    for _ in range(200):
        schema = random_schema(rng, names)
        for _ in range(2):
            values.append(JsonConverter().from_connect("topic", schema, random_value(rng, schema)))
    config = {"schemas.enable": "true", "decimal.format": decimal_format, "mode": "converter"}
    reference = json_format_lines(values, tmp_path, config)
    compared, mismatched = 0, []
    for value, want in zip(values, reference, strict=True):
        if isinstance(want, str) and want.startswith(REMOVED_LIMITS):
            continue
        compared += 1
        got = ours_written_back(value or b"", decimal_format)
        if got != want and not (isinstance(got, str) and isinstance(want, str)):
            mismatched.append((value, want, got))
    shown = (f"{v!r}\n  java: {w!r}\n  ours: {g!r}" for v, w, g in mismatched)
    assert not mismatched, "\n".join(list(shown)[:4])
    assert compared > 300, compared


def test_schemaless_values_written_back_are_what_kafka_writes(tmp_path: Path) -> None:
    """What the S3 source publishes from JSON lines with ``JsonConverter`` and
    ``schemas.enable=false``: Kafka's ``fromConnectData`` of what its ``toConnectData`` read."""
    values = generated(11, 500)
    reference = json_format_lines(values, tmp_path, {"mode": "converter"})
    converter = JsonConverter(schemas_enable=False)
    mismatched = []
    for value, want in zip(values, reference, strict=True):
        try:
            connect, schema = converter.to_connect("topic", value)
            got: bytes | str = converter.from_connect("topic", schema, connect) or b"null"
        except ValueError as exc:
            got = str(exc)
        if got != want and not (isinstance(got, str) and isinstance(want, str)):
            mismatched.append((value, want, got))
    assert not mismatched, mismatched[:4]
    assert sum(isinstance(w, bytes) for w in reference) > 400


@pytest.mark.parametrize("level", [-1, 1, 9])
def test_gzip_files_are_what_javas_gzip_stream_writes(level: int) -> None:
    # Confluent's CompressionType.GZIP: GZIPOutputStream(out, 8192) at s3.compression.level.
    rng = random.Random(level)
    chunks = [b'{"a":%d}\n' % i for i in range(300)] + [rng.randbytes(5000), b"", b"tail\n"]
    source = Path(__file__).with_name("GzipReference.java")
    args = [str(level), *(base64.b64encode(c).decode() for c in chunks)]
    done = subprocess.run(
        ["java", str(source), *args], capture_output=True, text=True, check=True
    )  # fmt: skip
    out = io.BytesIO()
    stream = GzipStream(out, level)
    for chunk in chunks:
        stream.write(chunk)
    stream.close()
    assert out.getvalue() == base64.b64decode(done.stdout.strip())


_MISTYPED = [
    ('{"type":"int32"}', '"abc"'),
    ('{"type":"int32"}', "12.7"),
    ('{"type":"int8"}', "300"),
    ('{"type":"int32"}', "4398046511104"),
    ('{"type":"int64"}', "-12.9"),
    ('{"type":"boolean"}', '"true"'),
    ('{"type":"double"}', '"x"'),
    ('{"type":"float"}', "[1]"),
    ('{"type":"array","items":{"type":"int32"}}', '{"a":1,"b":2}'),
    ('{"type":"array","items":{"type":"int32"}}', "5"),
    ('{"type":"array","items":{"type":"string","optional":true}}', "[1,null]"),
    ('{"type":"struct","fields":[{"field":"a","type":"string"}]}', '{"a":5}'),
    ('{"type":"struct","fields":[{"field":"a","type":"string","optional":true}]}', '{"a":5}'),
    ('{"type":"struct","fields":[{"field":"a","type":"int16"}]}', '{"a":"x"}'),
    (
        '{"type":"struct","fields":[{"field":"a","type":"array","items":{"type":"bytes"}}]}',
        '{"a":[1]}',
    ),
    (
        '{"type":"struct","fields":[{"field":"a","type":"map","keys":{"type":"string"},'
        '"values":{"type":"string"}}]}',
        '{"a":{"k":5}}',
    ),
    (
        '{"type":"bytes","name":"org.apache.kafka.connect.data.Decimal","parameters":{"scale":"2"}}',
        "1.5",
    ),
    (
        '{"type":"bytes","name":"org.apache.kafka.connect.data.Decimal","parameters":{"scale":"2"}}',
        '""',
    ),
    (
        '{"type":"bytes","name":"org.apache.kafka.connect.data.Decimal","parameters":{"scale":"2"}}',
        "true",
    ),
    ('{"type":"int32","name":"org.apache.kafka.connect.data.Date"}', '"x"'),
    ('{"type":"int32","name":"org.apache.kafka.connect.data.Date"}', "4398046511104"),
    ('{"type":"int32","name":"org.apache.kafka.connect.data.Time"}', "-1"),
    ('{"type":"int64","name":"org.apache.kafka.connect.data.Timestamp"}', "1.5"),
    ('{"type":"map","keys":{"type":"int32"},"values":{"type":"int32"}}', '{"a":1}'),
    ('{"type":"map","keys":{"type":"int32"},"values":{"type":"int32"}}', "[5]"),
    ('{"type":"map","keys":{"type":"int32"},"values":{"type":"int32"}}', "[[1,2,3]]"),
    ('{"type":"map","keys":{"type":"string"},"values":{"type":"int32"}}', "[]"),
    ('{"type":"map","keys":null,"values":{"type":"int32"}}', "[]"),
    ('{"type":"boolean","default":null}', "true"),
    ('{"type":"boolean","optional":"yes"}', "true"),
    ('{"type":"int32","version":"x","parameters":5}', "1"),
    ('{"type":"int32","parameters":{"a":1}}', "1"),
    ('"x"', "1"),
    ('{"type":"string"}', "12"),
    ('{"type":"bytes"}', "12"),
    ('{"type":"bytes"}', '"!!"'),
    ('{"type":"bytes"}', '"dGVz dA=="'),
    ('{"type":"bytes"}', '"dGVzdA"'),
    ('{"type":"bytes"}', '"dGVzdA=\\n="'),
    ('{"type":"bytes"}', '"dGVzdB=="'),
    ('{"type":"array","items":{"type":"string"}}', '[1, "a"]'),
    (
        '{"type":"struct","fields":[{"field":"a","type":"int32"},{"field":"a","type":"int32"}]}',
        "{}",
    ),
    ('{"type":"struct","fields":[{"field":"a","type":"int32","optional":true}]}', "[1]"),
]


def test_mistyped_envelopes_are_read_as_kafka_reads_them(tmp_path: Path) -> None:
    """Payloads of another JSON type than their schema's, as Jackson's ``intValue()``,
    ``textValue()``... read them (``"abc"`` for an int32 is 0, a number for a string null,
    which ``Struct.put`` refuses), and malformed schemas: the same line or the same error."""
    values: list[bytes | None] = [
        f'{{"schema":{schema},"payload":{payload}}}'.encode() for schema, payload in _MISTYPED
    ]
    reference = json_format_lines(values, tmp_path, {"schemas.enable": "true"})
    got = [ours_enveloped(value or b"", "BASE64") for value in values]
    mismatched = [(v, w, g) for v, w, g in zip(values, reference, got, strict=True) if w != g]
    shown = (f"{v!r}\n  java: {w!r}\n  ours: {g!r}" for v, w, g in mismatched)
    assert not mismatched, "\n".join(shown)


@pytest.mark.parametrize("decimal_format", ["BASE64", "NUMERIC"])
def test_numeric_decimals_keep_their_scale(decimal_format: str, tmp_path: Path) -> None:
    """A JSON number for a Decimal is its BigDecimal as it is: NUMERIC writes it back so,
    BASE64 refuses one of another scale than the schema's (``Decimal.fromLogical``)."""
    schema = (
        '{"type":"struct","fields":[{"field":"d","type":"bytes","name":'
        '"org.apache.kafka.connect.data.Decimal","parameters":{"scale":"2"}}]}'
    )
    values: list[bytes | None] = [
        f'{{"schema":{schema},"payload":{{"d":{number}}}}}'.encode()
        for number in ("1.5", "1.567", "15", "1.50", "-0.00", "1E+2")
    ]
    config = {"schemas.enable": "true", "format.decimal.format": decimal_format}
    reference = json_format_lines(values, tmp_path, config)
    assert [ours_enveloped(value or b"", decimal_format) for value in values] == reference
