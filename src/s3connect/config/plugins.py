"""Python classes a config names in place of Confluent's Java ones: ``partitioner.class`` and
``format.class`` may name a class of the user's (``my_package.partitioning.RegionPartitioner``),
while Confluent's class names keep meaning the built-ins.

The class must be importable where the sink runs (the driver and every executor: install it with
the job's libraries). It is made with one argument, the connector config (every key, as strings,
config-provider references resolved), once per Spark task. The keys it reads itself are named
by its ``config_keys`` class attribute (a collection of key names), so that they are not reported
as unknown. What each kind must have:

- a partitioner: ``encode_partition(record: SinkRecord, now_ms: int) -> str``, the encoded
  partition (the folder between ``topics/<topic>/`` and the file name); raise
  :class:`~s3connect.errors.PartitionError` for a record it cannot place (a dead letter with
  ``errors.tolerance=all``, as Confluent's ``PartitionException``).
- a format: an ``extension`` attribute (``.csv``) and
  ``write(records: Sequence[SinkRecord], out: BinaryIO) -> None``, writing one whole file; an
  optional ``needs_schema = True`` makes schemaless records fail before they join a file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal

__all__ = ["Plugin", "PluginKind", "load_plugin", "looks_like_python", "plugin_keys"]

PluginKind = Literal["partitioner", "format"]
Plugin = Callable[[Mapping[str, str]], Any]

_NEEDS: Mapping[PluginKind, tuple[str, ...]] = {
    "partitioner": ("encode_partition",),
    "format": ("extension", "write"),
}


def load_plugin(kind: PluginKind, name: str) -> type[Any]:
    """The class a dotted ``name`` (``package.module.Class`` or ``package.module:Class``) names.

    Raises:
        ValueError: it cannot be imported, or lacks what a ``kind`` needs (the message says
            which, for the config's problem line).
    """
    module_name, sep, attr = name.rpartition(":") if ":" in name else name.rpartition(".")
    if not sep or not module_name or not attr:
        raise ValueError("not a Python class path (package.module.ClassName)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name!r} ({exc})") from None
    cls = getattr(module, attr, None)
    if not isinstance(cls, type):
        raise ValueError(f"{module_name!r} has no class {attr!r}")
    missing = [need for need in _NEEDS[kind] if not hasattr(cls, need)]
    if missing:
        raise ValueError(f"a {kind} class needs {', '.join(missing)}; {name} has none")
    return cls


def plugin_keys(cls: type[Any]) -> Collection[str]:
    """The config keys a plugin class reads itself (its ``config_keys``)."""
    keys = getattr(cls, "config_keys", ())
    return tuple(keys) if isinstance(keys, Collection) and not isinstance(keys, str) else ()


def looks_like_python(name: str) -> bool:
    """Whether a class name could be a Python class path rather than one of Confluent's or
    Kafka's Java classes (which are never loaded as plugins)."""
    java = ("io.confluent.", "org.apache.", "com.amazonaws.", "software.amazon.")
    return "." in name.strip() and not name.strip().startswith(java)
