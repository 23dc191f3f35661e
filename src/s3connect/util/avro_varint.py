"""Avro's binary varints: unsigned base-128 groups and zig-zag longs (lengths, counts, block
sizes), read from a stream and written as bytes."""

from __future__ import annotations

from typing import BinaryIO

__all__ = ["encode_long", "read_long", "read_varint"]


def read_varint(fo: BinaryIO) -> int:
    """An unsigned base-128 varint (little-endian groups of 7 bits) read from ``fo``.

    Raises:
        EOFError: the stream ends inside the varint.
    """
    shift = n = 0
    while True:
        byte = fo.read(1)
        if not byte:
            raise EOFError("the stream ends inside a varint")
        n |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            return n
        shift += 7


def read_long(fo: BinaryIO) -> int:
    """An Avro long (a zig-zag varint) read from ``fo``."""
    n = read_varint(fo)
    return (n >> 1) ^ -(n & 1)


def encode_long(n: int) -> bytes:
    """Avro's zig-zag varint encoding of a long."""
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n & ~0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)
