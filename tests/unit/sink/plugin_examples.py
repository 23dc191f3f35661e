"""Plugin classes a user could name in ``partitioner.class`` / ``format.class`` (test fixtures)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import BinaryIO

from s3connect.connect.records import SinkRecord
from s3connect.errors import PartitionError


class RegionPartitioner:
    """``region=<value's region>``, upper-cased as ``region.case=upper`` says."""

    config_keys = ("region.case",)

    def __init__(self, config: Mapping[str, str]) -> None:
        self.upper = config.get("region.case", "lower") == "upper"

    def encode_partition(self, record: SinkRecord, now_ms: int) -> str:
        region = record.value.get("region") if isinstance(record.value, dict) else None
        if not isinstance(region, str):
            raise PartitionError(
                "no region",
                topic=record.topic,
                partition=record.partition,
                offset=record.offset,
            )
        return f"region={region.upper() if self.upper else region}"


class CsvFormat:
    """One line per record: the values of ``csv.columns``, comma-separated."""

    config_keys = ("csv.columns",)
    extension = ".csv"

    def __init__(self, config: Mapping[str, str]) -> None:
        self.columns = config["csv.columns"].split(",")

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        for record in records:
            line = ",".join(str(record.value.get(c, "")) for c in self.columns)
            out.write(line.encode() + b"\n")


class NotAFormat:
    """Lacks ``extension`` and ``write``."""
