"""java.util.HashMap's iteration order, against what Java 17 printed for the same puts
(``new HashMap<>()``, ``put`` in the given order, ``keySet()``)."""

from __future__ import annotations

import pytest

from s3connect.util.java_hashmap import hashmap_order, java_hash


@pytest.mark.parametrize(
    ("puts", "java"),
    [
        ("id,name", "name,id"),
        ("b,a", "a,b"),
        ("user,amount,region,ts,tags,id", "amount,id,region,user,ts,tags"),
        ("Aa,BB", "Aa,BB"),  # equal hash codes: insertion order
        ("BB,Aa", "BB,Aa"),
        # 13 keys: the table has grown to 32
        (
            "k0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11,k12,k13",
            "k0,k1,k2,k3,k4,k5,k11,k6,k10,k7,k13,k8,k12,k9",
        ),
        ("é,键,😀,a", "a,😀,é,键"),  # hashCode over UTF-16 code units
    ],
)  # fmt: skip
def test_string_keys_come_out_in_java_order(puts: str, java: str) -> None:
    keys = tuple(puts.split(","))
    assert [keys[i] for i in hashmap_order(keys)] == java.split(",")


def test_integer_and_long_keys_come_out_in_java_order() -> None:
    ints = (33, 5, -1, 17, 3, 16)
    assert [ints[i] for i in hashmap_order(ints)] == [-1, 16, 33, 17, 3, 5]
    longs = (1 << 32, 5, -1, 17, 3)
    assert [longs[i] for i in hashmap_order(longs, long=True)] == [-1, 1 << 32, 17, 3, 5]


def test_hash_codes_are_javas() -> None:
    assert java_hash("name") == 3373707
    assert java_hash("polygenelubricants") == -(2**31)  # wraps at 32 bits
    assert java_hash("😀") == 1772899
    assert java_hash(-1, long=True) == 0
    with pytest.raises(TypeError, match="float"):
        java_hash(1.5)
