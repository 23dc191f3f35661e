"""Straight-line Python for the per-record value conversions of the sink's hot path.

The compiled converters (JSON -> Connect in :mod:`s3connect.convert.json`, Connect -> Avro in
:mod:`s3connect.convert.avro_data`) are trees of small closures: correct, but several Python
calls per field. For a schema, :func:`json_to_connect_fast` and :func:`connect_to_avro_fast`
generate one function with the whole tree inlined (exact ``type(x) is ...`` checks, loops for
arrays). It handles only the common, unremarkable case: on anything else (a subclass, a value of
the wrong type, a null for a required field, ...) it hands the whole input to the reference
converter, which returns the same value or raises its usual error. So a generated function never
decides an error; it only has to be right when it returns a value itself.
Types it does not inline (decimals, Avro fixed, maps with keys other than strings) go to the
reference converter of that sub-schema, which gives the same result (or error) as inside the
whole tree. :func:`connect_to_arrow_fast` is the Connect -> Avro code for the Python values of
Arrow rows (:mod:`s3connect.formats.arrow`), which differ from Avro datums only in maps.
"""

from __future__ import annotations

import math
from base64 import b64decode
from collections.abc import Callable
from datetime import datetime, timedelta
from decimal import Decimal
from functools import lru_cache, partial
from types import CodeType
from typing import Any

from s3connect.connect.json_data import as_hashmap, java_double
from s3connect.connect.logical import (
    EPOCH,
    EPOCH_DAY,
    MS_PER_DAY,
    date_to_days,
    time_to_millis,
    timestamp_to_millis,
)
from s3connect.connect.schema import DATE, DECIMAL, INT_RANGES, TIME, TIMESTAMP, ConnectSchema, Type

__all__ = [
    "UNDECIDED",
    "connect_to_arrow_fast",
    "connect_to_avro_fast",
    "floats_to_connect_fast",
    "json_to_connect_fast",
]

_LOGICAL = (DECIMAL, DATE, TIME, TIMESTAMP)
_EPOCH_UNITS = {DATE: date_to_days, TIME: time_to_millis, TIMESTAMP: timestamp_to_millis}
"""The logical types whose Avro datum (and Arrow row value) is the same int, by one function."""
_MAX_DEPTH = 24


class _Unsupported(Exception):
    pass


_FROM_EPOCH: dict[str | None, tuple[int, int, Callable[[int], Any]]] = {
    DATE: (-(7 * 10**5), 10**6, lambda days: EPOCH_DAY + timedelta(days=days)),
    TIME: (0, MS_PER_DAY, lambda ms: (datetime.min + timedelta(milliseconds=ms)).time()),
    TIMESTAMP: (-(10**13), 10**14, lambda ms: EPOCH + timedelta(milliseconds=ms)),
}
"""JSON integers as Connect's Date, Time and Timestamp, as ``json_to_connect`` computes them:
the integers inlined (from, to) and the conversion (outside: the reference decides)."""


class _Gen:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ns: dict[str, Any] = {
            "_Decimal": Decimal,
            "_double": java_double,
            "_b64decode": b64decode,
            "_hashmap": as_hashmap,
            "_copysign": math.copysign,
        }
        self._n = 0

    def var(self, prefix: str = "v") -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def const(self, value: Any) -> str:
        name = self.var("_k")
        self.ns[name] = value
        return name

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def build(self, name: str, slow: Callable[[Any], Any]) -> Callable[[Any], Any]:
        self.ns["_SLOW"] = slow
        src = f"def {name}(arg):\n    v0 = arg\n" + "\n".join(self.lines) + "\n"
        exec(_compiled(src, name), self.ns)
        fn: Callable[[Any], Any] = self.ns[name]
        return fn


@lru_cache(maxsize=1024)
def _compiled(src: str, name: str) -> CodeType:
    """The code of a generated function's source: compiling is most of a build, and the tasks a
    Python worker runs build the same schemas' functions again (each with its own constants)."""
    return compile(src, f"<s3connect.convert.codegen {name}>", "exec")


def json_to_connect_fast(
    schema: ConnectSchema,
    replace: bool,
    reference: Callable[[ConnectSchema, bool], Callable[[Any], Any]],
) -> Callable[[Any], Any] | None:
    """A generated JSON -> Connect converter for ``schema``, or None when nothing is gained.

    ``reference(schema, replace)`` gives the reference converter of a (sub-)schema: for the
    types not inlined, and for the whole value when the generated code does not decide.
    """
    return _json_to(schema, replace, reference, parsed_floats=False)


UNDECIDED: Any = object()
"""What :func:`floats_to_connect_fast`'s functions return when they cannot decide."""


def floats_to_connect_fast(schema: ConnectSchema, replace: bool) -> Callable[[Any], Any] | None:
    """:func:`json_to_connect_fast` for JSON parsed with floats, not Decimals (orjson's parse of
    text that holds no integer beyond 64 bits), or None when the schema holds a type whose
    value needs the exact text (a decimal, a map with keys other than strings). The function
    returns :data:`UNDECIDED` for anything the exact path must decide: then the text is parsed
    again exactly, so a number read as a float never reaches an error or a reference."""
    return _json_to(schema, replace, lambda s, r: lambda node: UNDECIDED, parsed_floats=True)


def _json_to(
    schema: ConnectSchema,
    replace: bool,
    reference: Callable[[ConnectSchema, bool], Callable[[Any], Any]],
    parsed_floats: bool,
) -> Callable[[Any], Any] | None:
    if schema.type not in (Type.STRUCT, Type.ARRAY) or schema.name in _LOGICAL:
        return None
    gen = _Gen()
    try:
        out = _json_node(gen, schema, "v0", 1, replace, reference, 0, parsed_floats)
    except _Unsupported:
        return None
    gen.emit(1, f"return {out}")
    return gen.build("json_to_connect", reference(schema, replace))


def _json_node(
    gen: _Gen,
    schema: ConnectSchema,
    src: str,
    ind: int,
    replace: bool,
    reference: Callable[[ConnectSchema, bool], Callable[[Any], Any]],
    depth: int,
    parsed_floats: bool,
) -> str:
    """Emit code converting the JSON node in ``src``; returns the variable holding the result."""
    if depth > _MAX_DEPTH:
        raise _Unsupported
    t = schema.type
    out = gen.var()
    map_keys = schema.key_schema.type if schema.key_schema is not None else None
    if schema.name == DECIMAL or (t is Type.MAP and map_keys is not Type.STRING):
        if parsed_floats:
            raise _Unsupported
        # The reference closure handles nulls and defaults itself.
        gen.emit(ind, f"{out} = {gen.const(reference(schema, replace))}({src})")
        return out
    # Null handling, in the reference converter's order.
    if replace and schema.default is not None:
        gen.emit(ind, f"if {src} is None:")
        gen.emit(ind + 1, f"{out} = {gen.const(schema.default)}")
    elif schema.optional:
        gen.emit(ind, f"if {src} is None:")
        gen.emit(ind + 1, f"{out} = None")
    else:
        gen.emit(ind, f"if {src} is None:")
        gen.emit(ind + 1, "return _SLOW(arg)")
    gen.emit(ind, "else:")
    ind += 1
    child = partial(
        _json_node,
        gen,
        replace=replace,
        reference=reference,
        depth=depth + 1,
        parsed_floats=parsed_floats,
    )
    if t is Type.MAP:  # string keys: a JSON object, in JsonConverter's HashMap order
        _string_map(gen, schema, src, out, ind, False, lambda sub, s, i: child(sub, s, i))
    elif not _json_scalar(gen, schema, src, out, ind, parsed_floats):
        _common_node(gen, schema, src, out, ind, lambda sub, s, i: child(sub, s, i))
    return out


def _json_scalar(
    gen: _Gen, schema: ConnectSchema, src: str, out: str, ind: int, parsed_floats: bool
) -> bool:
    """Emit the conversion of a JSON number or base64 text (not null); False: not one."""
    t = schema.type
    if schema.name in _FROM_EPOCH:
        low, high, convert = _FROM_EPOCH[schema.name]
        gen.emit(ind, f"if {src}.__class__ is not int or not {low} <= {src} < {high}:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, f"{out} = {gen.const(convert)}({src})")
    elif t is Type.BYTES:
        gen.emit(ind, f"if {src}.__class__ is not str:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, "try:")
        gen.emit(ind + 1, f"{out} = _b64decode({src}, validate=True)")
        gen.emit(ind, "except ValueError:")
        gen.emit(ind + 1, "return _SLOW(arg)")
    elif t in INT_RANGES:
        low, high = INT_RANGES[t]
        gen.emit(ind, f"if {src}.__class__ is not int or not {low} <= {src} <= {high}:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, f"{out} = {src}")
    elif t in (Type.FLOAT32, Type.FLOAT64) and parsed_floats:
        # A zero's sign: "-0.0" is 0.0 in Java, an underflow such as -1e-400 is -0.0.
        gen.emit(ind, f"if ({src}.__class__ is float and {src}) or {src}.__class__ is int:")
        gen.emit(ind + 1, f"{out} = _double({src})")
        gen.emit(ind, f"elif {src}.__class__ is float and _copysign(1.0, {src}) > 0:")
        gen.emit(ind + 1, f"{out} = 0.0")
        gen.emit(ind, "else:")
        gen.emit(ind + 1, "return _SLOW(arg)")
    elif t in (Type.FLOAT32, Type.FLOAT64):
        gen.emit(ind, f"if {src}.__class__ is _Decimal or {src}.__class__ is int:")
        gen.emit(ind + 1, f"{out} = _double({src})")
        gen.emit(ind, "else:")
        gen.emit(ind + 1, "return _SLOW(arg)")
    else:
        return False
    return True


def connect_to_avro_fast(
    schema: ConnectSchema, reference: Callable[[ConnectSchema], Callable[[Any], Any]]
) -> Callable[[Any], Any] | None:
    """A generated Connect -> Avro datum converter for ``schema``, or None when nothing is gained.

    ``reference(schema)`` gives the reference converter of a (sub-)schema: for the types not
    inlined, and for the whole value when the generated code does not decide.
    """
    return _connect_to(schema, reference, arrow=False)


def connect_to_arrow_fast(
    schema: ConnectSchema, reference: Callable[[ConnectSchema], Callable[[Any], Any]]
) -> Callable[[Any], Any] | None:
    """:func:`connect_to_avro_fast` for the Python values of Arrow rows
    (:func:`s3connect.formats.arrow.to_arrow_value`): the same but for maps with string keys,
    which become lists of ``(key, value)`` pairs instead of dicts."""
    return _connect_to(schema, reference, arrow=True)


def _connect_to(
    schema: ConnectSchema, reference: Callable[[ConnectSchema], Callable[[Any], Any]], arrow: bool
) -> Callable[[Any], Any] | None:
    if schema.type not in (Type.STRUCT, Type.ARRAY) or schema.name in _LOGICAL:
        return None
    gen = _Gen()
    try:
        out = _avro_node(gen, schema, "v0", 1, reference, 0, arrow)
    except _Unsupported:
        return None
    gen.emit(1, f"return {out}")
    return gen.build("connect_to_arrow" if arrow else "connect_to_avro", reference(schema))


def _avro_node(
    gen: _Gen,
    schema: ConnectSchema,
    src: str,
    ind: int,
    reference: Callable[[ConnectSchema], Callable[[Any], Any]],
    depth: int,
    arrow: bool,
    field: bool = False,
) -> str:
    """Emit code converting the Connect value in ``src`` (a struct's ``field``: its default
    stands in for a null, as ``Struct.get``); returns the variable holding the result."""
    if depth > _MAX_DEPTH:
        raise _Unsupported
    t = schema.type
    out = gen.var()
    if field and schema.default is not None:
        gen.emit(ind, f"if {src} is None:")
        gen.emit(ind + 1, f"{src} = {gen.const(schema.default)}")
    fixed = t is Type.BYTES and bool(schema.parameters)  # maybe Avro fixed: sizes checked
    if schema.name == DECIMAL or fixed or (t is Type.MAP and not _string_keys(schema)):
        gen.emit(ind, f"{out} = {gen.const(reference(schema))}({src})")
        return out
    # Null handling, in compile_to_avro's order.
    if schema.optional:
        gen.emit(ind, f"if {src} is None:")
        gen.emit(ind + 1, f"{out} = None")
        gen.emit(ind, "else:")
        ind += 1
    else:
        gen.emit(ind, f"if {src} is None:")
        gen.emit(ind + 1, "return _SLOW(arg)")
    child = partial(_avro_node, gen, reference=reference, depth=depth + 1, arrow=arrow)
    if schema.name in _EPOCH_UNITS:  # raises as the reference does, on the same value
        gen.emit(ind, f"{out} = {gen.const(_EPOCH_UNITS[schema.name])}({src})")
    elif t is Type.BYTES:
        gen.emit(ind, f"if {src}.__class__ is not bytes:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, f"{out} = {src}")
    elif t in INT_RANGES:
        low, high = INT_RANGES[t]
        gen.emit(ind, f"if {src}.__class__ is not int or not {low} <= {src} <= {high}:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, f"{out} = {src}")
    elif t in (Type.FLOAT32, Type.FLOAT64):
        gen.emit(ind, f"if {src}.__class__ is float and {src}:")  # a zero: its text decides
        gen.emit(ind + 1, f"{out} = {src}")
        gen.emit(ind, f"elif {src}.__class__ is int:")
        gen.emit(ind + 1, f"{out} = float({src})")
        gen.emit(ind, "else:")
        gen.emit(ind + 1, "return _SLOW(arg)")
    elif t is Type.MAP:
        _string_map(gen, schema, src, out, ind, arrow, lambda sub, s, i: child(sub, s, i))
    else:
        _common_node(
            gen,
            schema,
            src,
            out,
            ind,
            lambda sub, s, i: child(sub, s, i),
            lambda sub, s, i: child(sub, s, i, field=True),
        )
    return out


def _string_keys(schema: ConnectSchema) -> bool:
    """A map whose keys are required strings: an Avro map (a dict datum, or Arrow's pairs)
    whatever ``allow.optional.map.keys`` says."""
    key = schema.key_schema
    return key is not None and key.type is Type.STRING and not key.optional and key.name is None


def _string_map(
    gen: _Gen,
    schema: ConnectSchema,
    src: str,
    out: str,
    ind: int,
    arrow: bool,
    child: Callable[[ConnectSchema, str, int], str],
) -> None:
    """Emit a map with string keys: a dict datum, or (``arrow``) a list of pairs, in AvroData's
    HashMap order (:func:`~s3connect.convert.avro_data.avro_map_order`)."""
    assert schema.value_schema is not None
    key, item = gen.var("k"), gen.var("i")
    gen.emit(ind, f"if {src}.__class__ is not dict:")
    gen.emit(ind + 1, "return _SLOW(arg)")
    gen.emit(ind, f"{out} = {'[]' if arrow else '{}'}")
    gen.emit(ind, f"for {key}, {item} in _hashmap({src}).items():")
    gen.emit(ind + 1, f"if {key}.__class__ is not str:")
    gen.emit(ind + 2, "return _SLOW(arg)")
    value = child(schema.value_schema, item, ind + 1)
    gen.emit(ind + 1, f"{out}.append(({key}, {value}))" if arrow else f"{out}[{key}] = {value}")


def _common_node(
    gen: _Gen,
    schema: ConnectSchema,
    src: str,
    out: str,
    ind: int,
    child: Callable[[ConnectSchema, str, int], str],
    field_child: Callable[[ConnectSchema, str, int], str] | None = None,
) -> None:
    """Emit the code both directions share: booleans and strings kept as they are, arrays and
    structs rebuilt from their elements (``child(schema, source var, indent)`` emits one;
    ``field_child``, when given, a struct's field)."""
    t = schema.type
    if t is Type.BOOLEAN or t is Type.STRING:
        gen.emit(ind, f"if {src}.__class__ is not {'bool' if t is Type.BOOLEAN else 'str'}:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, f"{out} = {src}")
    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        gen.emit(ind, f"if {src}.__class__ is not list:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        gen.emit(ind, f"{out} = []")
        item = gen.var("i")
        gen.emit(ind, f"for {item} in {src}:")
        gen.emit(ind + 1, f"{out}.append({child(schema.value_schema, item, ind + 1)})")
    elif t is Type.STRUCT:
        gen.emit(ind, f"if {src}.__class__ is not dict:")
        gen.emit(ind + 1, "return _SLOW(arg)")
        get = gen.var("g")
        gen.emit(ind, f"{get} = {src}.get")
        parts = []
        for f in schema.fields:
            fv = gen.var("f")
            gen.emit(ind, f"{fv} = {get}({f.name!r})")
            parts.append(f"{f.name!r}: {(field_child or child)(f.schema, fv, ind)}")
        gen.emit(ind, f"{out} = {{{', '.join(parts)}}}")
    else:
        raise _Unsupported
