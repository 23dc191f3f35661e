"""The iteration order of a ``java.util.HashMap`` filled by ``put`` in a given order.

Kafka's JsonConverter turns every JSON object (and every Connect map) into a ``HashMap``; what
is written from it (JsonFormat's lines, a JSON record sent by the source) lists the entries in
that map's order, not the order of the input. For a map built by ``new HashMap<>()`` and
``put`` calls, that order is: bucket by bucket (``spread(key.hashCode()) & (capacity - 1)``),
and inside a bucket in insertion order (resizes split buckets keeping their relative order).

Modelled: ``String``, ``Integer``/``Short``/``Byte`` and ``Long`` keys (a map keyed by a
logical type, ``Date`` or ``BigDecimal``, keeps insertion order here), the default capacity
(16) and load factor (0.75), and the resize a crowded bucket causes while the table is smaller
than 64. Not modelled: a bucket of nine or more keys in a table of 64 or more, which Java turns
into a tree whose root it moves first (the keys keep insertion order here instead).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

__all__ = [
    "SMALL_MAP_KEYS",
    "copied_capacity",
    "hashmap_order",
    "hashmap_permutation",
    "java_hash",
    "sized_capacity",
    "small_map_bucket",
]

_INITIAL_CAPACITY = 16
_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


@lru_cache(maxsize=65536)
def java_string_hash(text: str) -> int:
    """``String.hashCode()``: over the UTF-16 code units, wrapping at 32 bits."""
    h = 0
    units = text.encode("utf-16-be", "surrogatepass")
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return _int32(h)


def java_hash(key: Hashable, long: bool = False) -> int:
    """``hashCode()`` of a map key: a ``String``, or an ``Integer`` (``Long`` when ``long``).

    Raises:
        TypeError: another kind of key.
    """
    if isinstance(key, str):
        return java_string_hash(key)
    if isinstance(key, int) and not isinstance(key, bool):
        if long:
            bits = key & 0xFFFFFFFFFFFFFFFF
            return _int32(bits ^ (bits >> 32))
        return _int32(key)
    raise TypeError(f"no Java hashCode modelled for {type(key).__name__} keys")


def _spread(h: int) -> int:
    h &= 0xFFFFFFFF
    return h ^ (h >> 16)


def copied_capacity(size: int) -> int:
    """The first table size of ``new HashMap<>(m)`` for a map ``m`` of ``size`` entries."""
    return _table_size_for(int(size / 0.75 + 1.0)) if size else _INITIAL_CAPACITY


def sized_capacity(initial: int) -> int:
    """The first table size of ``new HashMap<>(initial)``."""
    return _table_size_for(initial)


def _table_size_for(cap: int) -> int:
    """``HashMap.tableSizeFor``: the smallest power of two >= ``cap`` (1 for 0 and 1)."""
    return 1 if cap <= 1 else 1 << (cap - 1).bit_length()


def _capacity(hashes: Sequence[int], initial: int = _INITIAL_CAPACITY) -> int:
    """The table size after putting these (distinct) keys one by one into a map whose first
    table has ``initial`` buckets (``new HashMap<>()``: 16)."""
    capacity, bins = initial, dict[int, int]()
    for size, h in enumerate(hashes, 1):
        index = h & (capacity - 1)
        bins[index] = bins.get(index, 0) + 1
        if bins[index] > _TREEIFY_THRESHOLD and capacity < _MIN_TREEIFY_CAPACITY:
            capacity = _resized(hashes[:size], capacity, bins)  # treeifyBin: resize instead
        if size > capacity * 3 // 4:
            capacity = _resized(hashes[:size], capacity, bins)
    return capacity


def _resized(hashes: Sequence[int], capacity: int, bins: dict[int, int]) -> int:
    """Double the table: recount ``bins`` (in place) for the new size."""
    capacity *= 2
    bins.clear()
    for h in hashes:
        bins[h & (capacity - 1)] = bins.get(h & (capacity - 1), 0) + 1
    return capacity


@lru_cache(maxsize=8192)
def hashmap_order(
    keys: tuple[Hashable, ...], long: bool = False, initial: int = _INITIAL_CAPACITY
) -> tuple[int, ...]:
    """The positions of ``keys`` (distinct, in insertion order) in the map's iteration order;
    ``initial``: the first table size (:func:`copied_capacity`, :func:`sized_capacity` for
    the other constructors). Cached: the same keys in the same order come back in one lookup."""
    hashes = [_spread(java_hash(k, long)) for k in keys]
    capacity = _capacity(hashes, initial)
    return tuple(sorted(range(len(hashes)), key=lambda i: hashes[i] & (capacity - 1)))


@lru_cache(maxsize=8192)
def small_map_bucket(key: str) -> int:
    """The bucket of a ``String`` key in a ``new HashMap<>()`` of at most 8 keys: its first
    table of 16, which no resize grows (a load of 12, a crowded bucket of 9, is never reached).
    Sorting such a map's keys by it, ties kept in insertion order, is :func:`hashmap_order`."""
    return _spread(java_string_hash(key)) & (_INITIAL_CAPACITY - 1)


SMALL_MAP_KEYS = _TREEIFY_THRESHOLD
"""The most keys :func:`small_map_bucket` holds for."""


@lru_cache(maxsize=8192)
def hashmap_permutation(keys: tuple[str, ...]) -> tuple[int, ...] | None:
    """:func:`hashmap_order` of string keys, or None when it is the insertion order."""
    order = hashmap_order(keys)
    return None if order == tuple(range(len(keys))) else order
