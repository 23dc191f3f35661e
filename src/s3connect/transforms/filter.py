"""``org.apache.kafka.connect.transforms.Filter``: drops every record it is applied to; guard it
with a predicate to drop only some (``transforms.<alias>.predicate``, ``.negate``)."""

from __future__ import annotations

from s3connect.connect.records import SinkRecord
from s3connect.transforms.base import KAFKA_PACKAGE, Transformation
from s3connect.transforms.settings import Settings

__all__ = ["Filter"]


class Filter(Transformation):
    """``Filter``: no config; :meth:`apply` returns None."""

    class_name = f"{KAFKA_PACKAGE}.Filter"

    @classmethod
    def configure(cls, s: Settings) -> Filter:
        """``Filter`` has no keys."""
        return cls()

    def apply(self, record: SinkRecord) -> None:
        return None
