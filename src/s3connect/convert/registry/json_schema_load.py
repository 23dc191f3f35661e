"""How everit (the JSON Schema library behind Confluent's ``JsonSchema``, draft 7) loads a JSON
Schema object: which kind of schema a node is, and when it is a synthetic ``allOf``.

Everit makes one schema per "part" of a node: each of ``allOf``/``anyOf``/``oneOf``, ``enum``,
``const``, ``not``, the explicit ``type`` (a list of types: an ``anyOf`` of one schema per type),
and each other type whose keywords appear (``format`` beside ``"type": "integer"`` adds a string
schema). One part: the node is that schema, with the node's title, description, default and
``connect.*`` properties. Several: a synthetic ``allOf`` of the bare parts, which alone carries
them. Object properties come in ``java.util.HashMap`` order (everit keeps them in a ``HashMap``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from s3connect.util.java_hashmap import hashmap_order

__all__ = ["JsonRefs", "json_kind", "json_parts", "json_properties", "typed_member"]

_STRING_KEYWORDS = ("minLength", "maxLength", "pattern", "format", "contentEncoding")
_NUMBER_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_OBJECT_KEYWORDS = (
    "properties",
    "additionalProperties",
    "required",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "dependencies",
    "propertyNames",
)
_ARRAY_KEYWORDS = ("items", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains")
_TYPE_KEYWORDS = {
    "object": _OBJECT_KEYWORDS,
    "array": _ARRAY_KEYWORDS,
    "string": _STRING_KEYWORDS,
    "number": _NUMBER_KEYWORDS,
}
COMBINATORS = ("allOf", "anyOf", "oneOf")


class JsonRefs:
    """Resolves ``$ref``: JSON pointers within the root, or referenced schemas by name."""

    def __init__(self, root: Any, documents: Mapping[str, Any]) -> None:
        self.root = root
        self.documents = documents
        self.busy: list[int] = []

    def resolve(self, ref: str) -> Any:
        doc_name, _, pointer = ref.partition("#")
        doc = self.root if not doc_name else self.documents.get(doc_name)
        if doc is None:
            raise ValueError(f"JSON Schema $ref {ref!r} cannot be resolved")
        node = doc
        for part in [p for p in pointer.split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, Mapping) and part == "$defs" and "definitions" in node:
                node = node["definitions"]  # JsonSchema bridges definitions into $defs
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise ValueError(f"JSON Schema $ref {ref!r} cannot be resolved")
        return node


def _group(json_type: Any) -> Any:
    return "number" if json_type in ("integer", "number") else json_type


def typed_member(node: Mapping[str, Any], json_type: str) -> dict[str, Any]:
    """The bare schema everit makes for one explicit type of ``node``: the type and its
    keywords."""
    keywords = _TYPE_KEYWORDS.get(_group(json_type), ())
    return {"type": json_type, **{k: node[k] for k in keywords if k in node}}


def json_parts(node: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The bare parts everit loads a node without ``$ref`` into (more than one: a synthetic
    ``allOf`` of them)."""
    parts: list[dict[str, Any]] = [{c: node[c]} for c in COMBINATORS if c in node]
    parts += [{k: node[k]} for k in ("enum", "const", "not") if k in node]
    json_type = node.get("type")
    explicit: set[Any] = set()
    if isinstance(json_type, str):
        explicit = {_group(json_type)}
        parts.append(typed_member(node, json_type))
    elif isinstance(json_type, list):
        explicit = {_group(t) for t in json_type}
        part: dict[str, Any] = {}
        for t in json_type:
            part.update(typed_member(node, t) if isinstance(t, str) else {})
        parts.append({**part, "type": list(json_type)})
    for group, keywords in _TYPE_KEYWORDS.items():
        if group not in explicit and any(k in node for k in keywords):
            parts.append({k: node[k] for k in keywords if k in node})
    return parts


def json_kind(node: Mapping[str, Any]) -> str:
    """The everit schema a node loads as: ``ref``, ``synthetic`` (an ``allOf`` of parts),
    ``combined``, ``enum``, ``const``, ``not``, ``multi`` (a list of types), a JSON type name
    (explicit or implied by keywords) or ``empty`` (everit's EmptySchema)."""
    if "$ref" in node:
        return "ref"
    parts = json_parts(node)
    if len(parts) > 1:
        return "synthetic"
    if not parts:
        return "empty"
    part = parts[0]
    if any(c in part for c in COMBINATORS):
        return "combined"
    for keyword in ("enum", "const", "not"):
        if keyword in part:
            return keyword
    json_type = part.get("type")
    if isinstance(json_type, list):
        return "multi"
    if isinstance(json_type, str):
        return json_type
    return next(g for g, keywords in _TYPE_KEYWORDS.items() if any(k in part for k in keywords))


def json_properties(node: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """An object schema's properties in everit's order (``java.util.HashMap``'s)."""
    properties = node.get("properties")
    if not isinstance(properties, Mapping):
        return []
    items = [(str(k), v) for k, v in properties.items()]
    return [items[i] for i in hashmap_order(tuple(k for k, _ in items))]
