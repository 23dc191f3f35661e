""".proto text -> ``FileDescriptorProto``, for registries that return Protobuf schemas as text.

Confluent's Schema Registry gives the serialized descriptor with ``format=serialized``; other
registries (Apicurio's Confluent-compatible API) return schemas as registered, and producers
other than confluent-kafka's Python serializer register ``.proto`` text. No ``protoc`` is
available from Python's registries without native binaries, so this is a small parser of the
subset schemas use: ``syntax``, ``package``, ``import``, messages (nested), enums, fields with
labels, ``map<K, V>``, ``oneof``, proto3 ``optional``, ``reserved``, ``[default = ...]`` and the
``(confluent.field_meta)`` option; other options, ``extend`` blocks and services are skipped.
Type names are left relative, as protoc's input: the descriptor pool resolves them.

Not supported (raise ``ValueError``): groups, ``edition`` files.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["parse_proto"]

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<num>[-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan))
  | (?P<id>\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<sym>[{}\[\]()<>;=,:.])
    """,
    re.VERBOSE | re.DOTALL,
)

_SCALARS = {
    "double": 1,
    "float": 2,
    "int64": 3,
    "uint64": 4,
    "int32": 5,
    "fixed64": 6,
    "fixed32": 7,
    "bool": 8,
    "string": 9,
    "bytes": 12,
    "uint32": 13,
    "sfixed32": 15,
    "sfixed64": 16,
    "sint32": 17,
    "sint64": 18,
}
_LABELS = {"optional": 1, "required": 2, "repeated": 3}


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f".proto text: unexpected character {text[pos]!r} at offset {pos}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append(m.group())
    return out


def _unquote(token: str) -> str:
    body = token[1:-1]
    return bytes(body, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def _camel(name: str) -> str:
    """protoc's ToCamelCase(name, lower_first=false): ``user_address`` -> ``UserAddress``."""
    out, upper = [], True
    for ch in name:
        if ch == "_":
            upper = True
        elif upper:
            out.append(ch.upper())
            upper = False
        else:
            out.append(ch)
    return "".join(out)


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.syntax = "proto2"

    def peek(self, ahead: int = 0) -> str | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def next(self) -> str:
        if self.i >= len(self.toks):
            raise ValueError(".proto text: unexpected end")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, tok: str) -> None:
        got = self.next()
        if got != tok:
            raise ValueError(f".proto text: expected {tok!r}, got {got!r}")

    def skip_statement(self) -> None:
        """Skip to the end of a statement or a balanced block."""
        depth = 0
        while True:
            tok = self.next()
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
                if depth == 0:
                    if self.peek() == ";":
                        self.next()
                    return
            elif tok == ";" and depth == 0:
                return

    def balanced(self, open_: str, close: str) -> list[str]:
        """The tokens of a balanced group starting at ``open_`` (both brackets excluded)."""
        self.expect(open_)
        depth, out = 1, list[str]()
        while True:
            tok = self.next()
            if tok == open_:
                depth += 1
            elif tok == close:
                depth -= 1
                if depth == 0:
                    return out
            out.append(tok)

    def parse(self) -> Any:
        from google.protobuf import descriptor_pb2

        fp = descriptor_pb2.FileDescriptorProto()
        while self.peek() is not None:
            tok = self.next()
            if tok == "syntax":
                self.expect("=")
                self.syntax = _unquote(self.next())
                self.expect(";")
                if self.syntax == "proto3":
                    fp.syntax = "proto3"
            elif tok == "edition":
                raise ValueError(".proto text: editions are not supported")
            elif tok == "package":
                fp.package = self.next().lstrip(".")
                self.expect(";")
            elif tok == "import":
                kind = self.peek()
                if kind in ("public", "weak"):
                    self.next()
                dep = _unquote(self.next())
                if kind == "public":
                    fp.public_dependency.append(len(fp.dependency))
                fp.dependency.append(dep)
                self.expect(";")
            elif tok == "message":
                self.message(fp.message_type.add())
            elif tok == "enum":
                self.enum(fp.enum_type.add())
            elif tok == ";":
                continue
            else:  # option, service, extend
                self.skip_statement()
        return fp

    def message(self, msg: Any) -> None:
        msg.name = self.next()
        self.expect("{")
        synthetic: list[Any] = []
        while True:
            tok = self.peek()
            if tok == "}":
                self.next()
                break
            if tok == ";":
                self.next()
            elif tok == "message":
                self.next()
                self.message(msg.nested_type.add())
            elif tok == "enum":
                self.next()
                self.enum(msg.enum_type.add())
            elif tok == "oneof":
                self.next()
                index = len(msg.oneof_decl)
                msg.oneof_decl.add().name = self.next()
                self.expect("{")
                while self.peek() != "}":
                    if self.peek() == "option" or self.peek() == ";":
                        self.skip_statement() if self.peek() == "option" else self.next()
                        continue
                    self.field(msg, None, oneof=index)
                self.next()
            elif tok in ("option", "reserved", "extensions", "extend"):
                self.skip_statement()
            elif tok == "map":
                self.map_field(msg)
            else:
                label = None
                if tok in _LABELS:
                    label = self.next()
                if self.peek() == "group":
                    raise ValueError(".proto text: groups are not supported")
                field = self.field(msg, label)
                if label == "optional" and self.syntax == "proto3":
                    field.proto3_optional = True
                    synthetic.append(field)
        for field in synthetic:  # protoc adds proto3 optional's oneofs after the real ones
            field.oneof_index = len(msg.oneof_decl)
            msg.oneof_decl.add().name = "_" + field.name

    def field(self, msg: Any, label: str | None, oneof: int | None = None) -> Any:
        type_name = self.next()
        field = msg.field.add()
        field.name = self.next()
        self.expect("=")
        field.number = int(self.next(), 0)
        field.label = _LABELS[label] if label else 1
        if type_name in _SCALARS:
            field.type = _SCALARS[type_name]
        else:
            field.type_name = type_name
        if oneof is not None:
            field.oneof_index = oneof
        self.options(field)
        self.expect(";")
        return field

    def map_field(self, msg: Any) -> None:
        self.expect("map")
        inner = self.balanced("<", ">")
        if len(inner) != 3 or inner[1] != ",":
            raise ValueError(f".proto text: bad map type map<{''.join(inner)}>")
        key_type, value_type = inner[0], inner[2]
        name = self.next()
        self.expect("=")
        number = int(self.next(), 0)
        entry = msg.nested_type.add()
        entry.name = _camel(name) + "Entry"
        entry.options.map_entry = True
        for i, (fname, ftype) in enumerate((("key", key_type), ("value", value_type)), 1):
            f = entry.field.add(name=fname, number=i, label=1)
            if ftype in _SCALARS:
                f.type = _SCALARS[ftype]
            else:
                f.type_name = ftype
        field = msg.field.add(name=name, number=number, label=3, type_name=entry.name)
        self.options(field)
        self.expect(";")

    def options(self, field: Any) -> None:
        if self.peek() != "[":
            return
        toks = self.balanced("[", "]")
        for option in _split(toks, ","):
            if not option:
                continue
            if "=" not in option:
                raise ValueError(f".proto text: bad option {' '.join(option)}")
            eq = option.index("=")
            name, value = "".join(option[:eq]), option[eq + 1 :]
            if name == "default" and value:
                text = value[0]
                field.default_value = _unquote(text) if text[0] in "\"'" else text
            elif name == "(confluent.field_meta)" and value and value[0] == "{":
                _field_meta(field, value)

    def enum(self, enum: Any) -> None:
        enum.name = self.next()
        self.expect("{")
        while True:
            tok = self.next()
            if tok == "}":
                return
            if tok == ";":
                continue
            if tok in ("option", "reserved"):
                self.i -= 1
                self.skip_statement()
                continue
            value = enum.value.add(name=tok)
            self.expect("=")
            value.number = int(self.next(), 0)
            if self.peek() == "[":
                self.balanced("[", "]")
            self.expect(";")


def _split(tokens: list[str], sep: str) -> list[list[str]]:
    out: list[list[str]] = [[]]
    depth = 0
    for tok in tokens:
        if tok in "{[(<" and len(tok) == 1:
            depth += 1
        elif tok in "}])>" and len(tok) == 1:
            depth -= 1
        if tok == sep and depth == 0:
            out.append([])
        else:
            out[-1].append(tok)
    return out


def _field_meta(field: Any, value: list[str]) -> None:
    """``[(confluent.field_meta) = { params: [{key: "scale", value: "2"}] }]``."""
    from google.protobuf import text_format

    try:
        from confluent_kafka.schema_registry.confluent import meta_pb2
    except ImportError:
        return
    body = " ".join(value[1:-1])
    meta = getattr(meta_pb2, "Meta")()  # noqa: B009 (generated module)
    try:
        text_format.Parse(body, meta)
    except text_format.ParseError as exc:
        raise ValueError(f".proto text: bad (confluent.field_meta) option: {exc}") from None
    field.options.Extensions[getattr(meta_pb2, "field_meta")].CopyFrom(meta)  # noqa: B009


def parse_proto(text: str) -> Any:
    """Parse ``.proto`` text into a ``FileDescriptorProto`` (unresolved, relative type names).

    Raises:
        ValueError: a syntax error or an unsupported construct.
    """
    return _Parser(text).parse()
