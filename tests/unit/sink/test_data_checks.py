"""AvroData's DataExceptions, checked before a record joins an Avro or Parquet file."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.sink.data_checks import AvroDataChecks, avro_data_problem, decimal_problem

INT = ConnectSchema(Type.INT32)
OPT_INT = ConnectSchema(Type.INT32, optional=True)
NULL = "Found null value for non-optional schema"


def _struct(*fields: tuple[str, ConnectSchema], optional: bool = False) -> ConnectSchema:
    return ConnectSchema(
        Type.STRUCT, optional=optional, fields=tuple(Field(n, s) for n, s in fields)
    )


INNER = _struct(("a", INT), ("b", OPT_INT))
OUTER = _struct(
    ("i", INT),
    ("o", OPT_INT),
    ("d", ConnectSchema(Type.INT32, default=7)),
    ("inner", INNER),
    ("opt_inner", _struct(("a", INT), optional=True)),
    ("list", ConnectSchema(Type.ARRAY, value_schema=INNER)),
    ("map", ConnectSchema(Type.MAP, key_schema=ConnectSchema(Type.STRING), value_schema=INT)),
)
GOOD = {"i": 1, "o": None, "d": None, "inner": {"a": 1}, "opt_inner": None,
        "list": [{"a": 2, "b": None}], "map": {"k": 1}}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({}, None),
        ({"i": None}, NULL),  # a required field
        ({"inner": {"b": 1}}, NULL),  # a required field of a nested struct
        ({"inner": "x"}, "Invalid type for STRUCT: class java.lang.String"),
        ({"inner": 5}, "Invalid type for STRUCT: class java.lang.Long"),
        ({"opt_inner": {"a": None}}, NULL),
        ({"list": [{"a": 1}, None]}, NULL),  # an array element
        ({"list": [[1]]}, "Invalid type for STRUCT: class java.util.ArrayList"),
        ({"map": {"k": None}}, NULL),  # a map value
        ({"i": "not an int"}, None),  # a ClassCastException in Java: the file's write fails
        ({"i": None, "inner": "x"}, NULL),  # the first in field order
    ],
)
def test_avro_data_problems(change: dict[str, Any], problem: str | None) -> None:
    value = {**GOOD, **change}
    assert avro_data_problem(OUTER, value) == problem
    checks = AvroDataChecks()
    assert checks(OUTER, value) == problem
    assert checks(OUTER, GOOD) is None  # the compiled check of the last schema, again


def test_top_level_values() -> None:
    assert avro_data_problem(INNER, "1") == "Invalid type for STRUCT: class java.lang.String"
    assert avro_data_problem(INT, None) == NULL
    assert avro_data_problem(OPT_INT, None) is None
    assert avro_data_problem(ConnectSchema(Type.ARRAY, value_schema=OPT_INT), [None]) is None


DECIMAL2 = ConnectSchema(
    Type.BYTES, optional=True, name="org.apache.kafka.connect.data.Decimal",
    version=1, parameters={"scale": "2"},
)  # fmt: skip
PRICES = _struct(("price", DECIMAL2), ("history", ConnectSchema(Type.ARRAY, value_schema=DECIMAL2)))
SCALE = (
    "Decimal value has mismatching scale for given Decimal schema. "
    "Schema has scale 2, value has scale {}."
)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({"price": Decimal("1.50"), "history": [Decimal("0.10")]}, None),
        ({"price": None, "history": [None]}, None),
        ({"price": Decimal("5"), "history": []}, SCALE.format(0)),  # JSON 5 for a scale of 2
        ({"price": Decimal("1.50"), "history": [Decimal("1.555")]}, SCALE.format(3)),
    ],
)
def test_a_decimal_at_another_scale_fails_as_decimal_from_logical(
    value: Any, problem: str | None
) -> None:
    # JsonConverter reads a JSON number into a decimal of its own scale; AvroData's and
    # JsonConverter's (BASE64) Decimal.fromLogical refuse it record by record.
    assert avro_data_problem(PRICES, value) == problem
    assert AvroDataChecks(decimals_only=True)(PRICES, value) == problem
    assert decimal_problem(PRICES, value) == problem


def test_decimals_only_leaves_nulls_and_non_structs_alone() -> None:
    assert decimal_problem(OUTER, {**GOOD, "i": None}) is None
    assert decimal_problem(PRICES, "not a struct") is None
    assert avro_data_problem(OUTER, {**GOOD, "i": None}) == NULL
