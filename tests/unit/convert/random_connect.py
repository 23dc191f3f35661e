"""Random Connect schemas and values for the Avro tests: schemas AvroData gives back unchanged
(Connect -> Avro -> Connect), and values of them."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.avro_data import AVRO_ENUM, AVRO_UNION, FIELD_DEFAULT_FLAG, RECORD_DOC

__all__ = ["Names", "loosen", "random_schema", "random_struct", "random_value", "vars_of"]

FIELD_DOC = "io.confluent.connect.avro.field.doc."
PRECISION = "connect.decimal.precision"
FIXED_SIZE = "connect.fixed.size"
INT32, STRING = ConnectSchema(Type.INT32), ConnectSchema(Type.STRING)
OPT_INT32 = ConnectSchema(Type.INT32, optional=True)
OPT_STRING = ConnectSchema(Type.STRING, optional=True)
INT64 = ConnectSchema(Type.INT64)
# Kafka's Date.SCHEMA, Time.SCHEMA, Timestamp.SCHEMA: version 1.
DATE_SCHEMA = ConnectSchema(Type.INT32, name=DATE, version=1)
TIME_SCHEMA = ConnectSchema(Type.INT32, name=TIME, version=1)
TIMESTAMP_SCHEMA = ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, s) for n, s in fields), **kw)


class Names:
    """Unique record names: Avro Java refuses to redefine a name within one schema (so all
    fixed decimals of one schema, named org.apache.kafka.connect.data.Decimal, are alike)."""

    def __init__(self) -> None:
        self.n = 0
        self.fixed_decimal: ConnectSchema | None = None

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def random_schema(rng: random.Random, names: Names, depth: int = 0) -> ConnectSchema:
    """A Connect schema AvroData gives back unchanged: logical types as Kafka builds them
    (version 1), unions of two or more members, unique names, defaults only where AvroData
    reads them back (no union-typed content, no maps with non-string keys)."""
    r = rng.random()
    if depth > 2 or r < 0.45:
        s = random_primitive(rng, names)
    elif r < 0.57:
        s = ConnectSchema(Type.ARRAY, value_schema=random_schema(rng, names, depth + 1))
    elif r < 0.67:
        value = random_schema(rng, names, depth + 1)
        key = rng.choice([STRING, STRING, INT32, OPT_STRING, DATE_SCHEMA])
        named = key is not STRING and rng.random() < 0.5
        s = ConnectSchema(
            Type.MAP, key_schema=key, value_schema=value, name=names("m.Entry") if named else None
        )
        if key is not STRING and not named:  # every unnamed MapEntry record must be the same
            s = ConnectSchema(Type.MAP, key_schema=INT32, value_schema=STRING)
    elif r < 0.75:
        members = [
            ("int", OPT_INT32),
            ("string", OPT_STRING),
            ("boolean", ConnectSchema(Type.BOOLEAN, True)),
            ("Rec", struct(("x", INT32), name="u.Rec", optional=True)),
            ("array", ConnectSchema(Type.ARRAY, True, value_schema=INT64)),
        ]
        chosen = rng.sample(members, rng.randint(2, len(members)))
        s = struct(*chosen, name=AVRO_UNION, optional=rng.random() < 0.3)
        return s
    else:
        s = random_struct(rng, names, depth)
    if rng.random() < 0.25:
        s = ConnectSchema(**{**vars_of(s), "optional": True})
    return s


def random_primitive(rng: random.Random, names: Names) -> ConnectSchema:
    kind = rng.choice(
        [
            "int8",
            "int16",
            "int32",
            "int64",
            "float",
            "double",
            "boolean",
            "string",
            "bytes",
            "decimal",
            "date",
            "time",
            "timestamp",
            "fixed",
            "enum",
        ]
    )
    if kind == "decimal":
        params = {"scale": str(rng.choice([0, 2, 5]))}
        fixed = rng.random() < 0.3  # a precision its size holds (Avro's Decimal.validate)
        if fixed and names.fixed_decimal is not None:
            return names.fixed_decimal
        if fixed or rng.random() < 0.5:
            params[PRECISION] = str(rng.choice([10, 18] if fixed else [10, 20, 40]))
        if fixed:
            params[FIXED_SIZE] = str(rng.choice([8, 16]))
        s = ConnectSchema(Type.BYTES, name=DECIMAL, version=1, parameters=params)
    elif kind in ("date", "time", "timestamp"):
        s = {"date": DATE_SCHEMA, "time": TIME_SCHEMA, "timestamp": TIMESTAMP_SCHEMA}[kind]
    elif kind == "fixed":
        s = ConnectSchema(Type.BYTES, name=names("f.Fixed"), parameters={FIXED_SIZE: "4"})
    elif kind == "enum":
        symbols = rng.sample(["A", "B", "C"], rng.randint(1, 3))
        name = names("e.Enum")
        params = {AVRO_ENUM: name, **{f"{AVRO_ENUM}.{x}": x for x in symbols}}
        s = ConnectSchema(Type.STRING, name=name, parameters=params)
    else:
        s = ConnectSchema(Type(kind))
        if kind == "string" and rng.random() < 0.2:
            s = ConnectSchema(Type.STRING, parameters={"avro.java.string": "String"})
    extra: dict[str, Any] = {}
    if rng.random() < 0.15:
        extra["doc"] = "connect doc"
    if rng.random() < 0.15 and s.name not in (DECIMAL, DATE, TIME, TIMESTAMP):
        extra["version"] = rng.randint(1, 5)
    if rng.random() < 0.25:
        extra["default"] = random_value(rng, s)
    s = ConnectSchema(**{**vars_of(s), **extra})
    if FIXED_SIZE in s.parameters and s.name == DECIMAL:
        names.fixed_decimal = s
    return s


def random_struct(rng: random.Random, names: Names, depth: int) -> ConnectSchema:
    params: dict[str, str] = {}
    if rng.random() < 0.3:
        params[RECORD_DOC] = "record doc"
    fields = []
    for i in range(rng.randint(0, 4)):
        f = random_schema(rng, names, depth + 1)
        if f.name == AVRO_UNION and f.optional:  # its Avro field has "default": null
            f = ConnectSchema(**{**vars_of(f), "parameters": {FIELD_DEFAULT_FLAG: "true"}})
        elif (
            f.default is not None
            and not f.optional
            and f is not names.fixed_decimal  # that one stays one schema (one Avro name)
            and rng.random() < 0.3
        ):
            flagged = {**f.parameters, FIELD_DEFAULT_FLAG: "true"}
            f = ConnectSchema(**{**vars_of(f), "parameters": flagged})
        fields.append(Field(f"f{i}", f))
        if rng.random() < 0.2:
            params[FIELD_DOC + f"f{i}"] = f"doc {i}"
    name = rng.choice([None, None, names("ns.R"), names("R")])
    s = ConnectSchema(
        Type.STRUCT,
        name=name,
        fields=tuple(fields),
        parameters=params,
        version=rng.choice([None, None, 3]),
        doc=rng.choice([None, "doc"]),
    )
    if rng.random() < 0.15 and plain_content(s):
        s = ConnectSchema(**{**vars_of(s), "default": random_value(rng, s)})
    return s


def plain_content(s: ConnectSchema) -> bool:
    """No Avro union inside (no union struct, nothing optional), no map with non-string keys:
    what AvroData's defaultValueFromAvro reads back as it was written."""
    children = [f.schema for f in s.fields] + [c for c in (s.key_schema, s.value_schema) if c]
    if s.type is Type.MAP and s.key_schema != STRING:
        return False
    return all(c.name != AVRO_UNION and not c.optional and plain_content(c) for c in children)


def vars_of(s: ConnectSchema) -> dict[str, Any]:
    return {
        k: getattr(s, k)
        for k in (
            "type",
            "optional",
            "default",
            "name",
            "version",
            "doc",
            "parameters",
            "fields",
            "key_schema",
            "value_schema",
        )
    }


# Bytes and unscaled decimals without '"' nor '\\': util.jackson escapes them only once
# s3connect.convert.json has completed its JSON_ESCAPES (tests/unit/formats/test_readers.py).
PLAIN_BYTES = [b for b in range(256) if b not in b'"\\']
UNSCALED = [
    n
    for n in range(-(10**6), 10**6, 7919)
    if not {0x22, 0x5C} & set(n.to_bytes(4, "big", signed=True))
]


def random_value(rng: random.Random, s: ConnectSchema) -> Any:
    """A value of ``s``; null only where the schema is optional without a default."""
    if s.optional and s.default is None and rng.random() < 0.15:
        return None
    t, name = s.type, s.name
    if name == DECIMAL:
        return Decimal(rng.choice(UNSCALED)).scaleb(-int(s.parameters["scale"]))
    if name in (DATE, TIME, TIMESTAMP):
        return {
            DATE: date(2024, 1, 1 + rng.randint(0, 27)),
            TIME: time(rng.randint(0, 23), 5, 6, 7000),
            TIMESTAMP: datetime(2024, 5, 1, 8, 0, rng.randint(0, 59), 250000, tzinfo=UTC),
        }[name]
    if t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64):
        bits = {Type.INT8: 7, Type.INT16: 15, Type.INT32: 31, Type.INT64: 63}[t]
        return rng.randint(-(2**bits), 2**bits - 1)
    if t in (Type.FLOAT32, Type.FLOAT64):
        return rng.choice([0.0, 1.5, -2.25, 1e10])
    if t is Type.BOOLEAN:
        return rng.random() < 0.5
    if t is Type.STRING:
        symbols = [k.rpartition(".")[2] for k in s.parameters if k.startswith(AVRO_ENUM + ".")]
        return rng.choice(symbols or ["", "a", "é\u2603"])
    if t is Type.BYTES:
        size = s.parameters.get(FIXED_SIZE)
        length = int(size) if size else rng.randint(0, 3)
        return bytes(rng.choice(PLAIN_BYTES) for _ in range(length))
    if t is Type.ARRAY:
        assert s.value_schema is not None
        return [random_value(rng, s.value_schema) for _ in range(rng.randint(0, 3))]
    if t is Type.MAP:
        assert s.key_schema is not None and s.value_schema is not None
        return {
            random_value(rng, s.key_schema): random_value(rng, s.value_schema)
            for _ in range(rng.randint(0, 2))
        }
    if name == AVRO_UNION:
        member = rng.choice(s.fields)
        value = random_value(rng, ConnectSchema(**{**vars_of(member.schema), "optional": False}))
        return {f.name: value if f is member else None for f in s.fields}
    return {f.name: random_value(rng, f.schema) for f in s.fields}


def loosen(rng: random.Random, s: ConnectSchema) -> ConnectSchema:
    """Unversioned logical types, one-member unions, defaults anywhere."""
    kw = vars_of(s)
    if s.name in (DECIMAL, DATE, TIME, TIMESTAMP) and rng.random() < 0.5:
        kw["version"] = None
    if s.name == AVRO_UNION and rng.random() < 0.3:
        kw["fields"] = s.fields[:1]
    kw["fields"] = tuple(Field(f.name, loosen(rng, f.schema)) for f in kw["fields"])
    for k in ("key_schema", "value_schema"):
        if kw[k] is not None:
            kw[k] = loosen(rng, kw[k])
    out = ConnectSchema(**kw)
    if rng.random() < 0.2 and out.default is None:
        out = ConnectSchema(**{**vars_of(out), "default": random_value(rng, out)})
    return out
