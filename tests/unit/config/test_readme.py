"""The README's keys and the config's keys agree: every key the sink's and the source's key
groups read is named in the README, and every key in a README key table or key list is read."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from s3connect.config import sink, source
from s3connect.config.reader import KeyReader
from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig

README = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
# The README's prose lists of keys: the paragraph or bullet each starts.
KEY_LISTS = ("Supported Confluent keys:", "- **Same config as the sink**")
CONVERTER_PREFIX = re.compile(r"^(key|value)\.converter\.")
DOTTED_KEY = re.compile(r"^[a-z0-9]+(\.[a-z0-9]+)+$")


def _config_keys() -> set[str]:
    """Every key the groups read: a reader records each key asked for. A Schema Registry
    converter on both sides makes the registry keys read; keys accepted without effect and
    keys of later features are not documented one by one."""
    sink_reader = KeyReader({"key.converter": "avro", "value.converter": "avro"})
    SinkConfig.read(sink_reader)
    source_reader = KeyReader({})
    SourceConfig.read(source_reader)
    return (sink_reader.used - sink.NO_EFFECT_KEYS - set(sink.LATER_KEYS)) | (
        source_reader.used - source.NO_EFFECT_KEYS
    )


def _tokens(text: str) -> list[str]:
    """The backticked names in ``text`` (``key=value`` -> ``key``), a leading-dot shorthand
    (``.sts.role.session.name`` after ``s3.credentials.provider.sts.role.arn``) expanded."""
    tokens: list[str] = []
    for line in text.splitlines():
        previous = ""
        for raw in re.findall(r"`([^`]+)`", line):
            token = raw.split("=", 1)[0].strip()
            if token.startswith(".") and previous:
                at = previous.find("." + token.split(".")[1] + ".")
                token = previous[:at] + token if at >= 0 else token
            else:
                previous = token
            tokens.append(token)
    return tokens


# Its table names keys of every kind (refused, without effect): test_compatibility.py holds it.
COMPATIBILITY = "## Compatibility with Kafka Connect configs"


def _table_keys() -> list[str]:
    """The first-column keys of every README table whose first header is ``key`` (except the
    compatibility section's)."""
    keys: list[str] = []
    in_key_table = False
    before, _, after = README.partition(COMPATIBILITY)
    text = before + (after.split("\n## ", 1)[1] if "\n## " in after else "")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.lstrip().startswith("|"):
            in_key_table = False
        elif cells[0] == "key":
            in_key_table = True
        elif in_key_table and not set(cells[0]) <= set("-: "):
            keys += _tokens(cells[0])
    return keys


def _listed_keys() -> list[str]:
    """The dotted key names in the README's prose key lists."""
    keys: list[str] = []
    for start in KEY_LISTS:
        paragraph = README[README.index(start) :].split("\n\n", 1)[0].split("\n- ", 1)[0]
        keys += [t for t in _tokens(paragraph) if DOTTED_KEY.match(t)]
    return keys


CONFIG_KEYS = _config_keys()
README_TOKENS = set(_tokens(README))


def _documented(key: str) -> bool:
    if key in README_TOKENS or any(fnmatchcase(key, t) for t in README_TOKENS if "*" in t):
        return True
    # The Schema Registry table names a converter's keys without their side's prefix.
    return CONVERTER_PREFIX.sub("", key) in README_TOKENS


def test_the_groups_read_the_keys_we_expect() -> None:
    assert {"flush.size", "s3.bucket.name", "value.converter.schema.registry.url"} <= CONFIG_KEYS
    assert {"behavior.on.error", "topic.prefix", "s3.poll.interval.ms"} <= CONFIG_KEYS
    assert "tasks.max" not in CONFIG_KEYS


@pytest.mark.parametrize("key", sorted(CONFIG_KEYS))
def test_every_config_key_is_in_the_readme(key: str) -> None:
    assert _documented(key), f"{key} is read by the config but not named in README.md"


@pytest.mark.parametrize("key", sorted(set(_table_keys() + _listed_keys())))
def test_every_readme_key_is_a_config_key(key: str) -> None:
    assert key in CONFIG_KEYS, f"README.md names {key}, which the config does not read"


def test_the_readme_tables_and_lists_are_found() -> None:
    assert {"kafka.bootstrap.servers", "s3.ssea.name", "store.kafka.keys"} <= set(_table_keys())
    assert "s3.credentials.provider.sts.role.session.name" in _table_keys()
    assert {"errors.tolerance", "dlq.table"} <= set(_table_keys())
    assert {"s3.part.size", "topic.creation.enable"} <= set(_listed_keys())
