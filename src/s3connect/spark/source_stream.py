"""The S3 source as a PySpark streaming data source (``pyspark.sql.datasource``).

Offsets (:mod:`s3connect.source.offsets`) say, per source topic-partition, the last object
published and how many of its records. Every ``latestOffset`` lists the bucket again, so new
objects and folders are found while the query runs, and reads past an object only once it has
settled (``listing.settle.ms``, :mod:`s3connect.source.settling`), so that a listing taken in
the middle of a sink's commit loses nothing; each micro-batch has one input partition
(one Spark task) per source topic-partition, which reads its objects in start-offset order,
serializes the records with the configured converters and publishes them itself, then returns
their counts.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxFiles,
    SupportsTriggerAvailableNow,
)

from s3connect.config.source import SourceConfig
from s3connect.convert.base import Serializer
from s3connect.kafka.publisher import Publisher
from s3connect.source.destinations import (
    check_destinations,
    check_not_source,
    ensure_destinations,
)
from s3connect.source.offsets import (
    ObjectSlice,
    Offsets,
    latest_offsets,
    offsets_from_json,
    offsets_to_json,
    plan_slices,
    tp_id,
    tp_of,
)
from s3connect.source.reader import (
    Listing,
    SourceRecord,
    key_serializer_for,
    list_objects,
    plain_bytes,
    read_object,
    read_values,
    source_storage,
    value_serializer,
)
from s3connect.source.settling import settle_wait, settled

if TYPE_CHECKING:
    from pyspark.sql.types import StructType

    from s3connect.storage.base import Storage
    from s3connect.transforms.chain import TransformationChain

__all__ = [
    "ROW_SCHEMA",
    "SOURCE_FORMAT",
    "S3SourceDataSource",
    "S3StreamReader",
    "configured_source",
]


SOURCE_FORMAT = "s3connect_s3_source"

ROW_SCHEMA = "topic STRING, partition INT, records BIGINT"
"""What each input partition returns once its records are in Kafka: how many it published to
each destination topic (at its own partition number), for the query's observed metrics."""
_ROW_ARROW = pa.schema([("topic", pa.string()), ("partition", pa.int32()), ("records", pa.int64())])


@dataclass(frozen=True, slots=True)
class _Work:
    """One input partition: the slices of one source topic-partition, in order."""

    topic: str
    partition: int
    destination: str | None
    """None: the transforms choose each record's topic."""
    partitions: int
    """The source topic's partition count (a destination created on the way gets as many)."""
    slices: tuple[ObjectSlice, ...]


def _counts(work: _Work, counts: Counter[str]) -> Iterator[pa.RecordBatch]:
    """``counts`` (records per destination topic) as one batch of :data:`ROW_SCHEMA` rows."""
    if counts:
        yield pa.RecordBatch.from_pydict(
            {
                "topic": list(counts),
                "partition": [work.partition] * len(counts),
                "records": list(counts.values()),
            },
            schema=_ROW_ARROW,
        )


class S3StreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Offsets, planning and reading of the S3 source (see the module docstring)."""

    def __init__(self, config: SourceConfig) -> None:
        self.config = config
        self._available_now = False
        self._target: Listing | None = None
        self._listing: Listing | None = None
        self._seen: dict[str, float] = {}
        self._checked: dict[str, int] = {}
        self._serializers: tuple[Serializer, Serializer] | None = None
        self._chain: TransformationChain | None = None
        self._created: set[str] = set()

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"])  # type: ignore[misc]

    def _list(self) -> Listing:
        listing = list_objects(source_storage(self.config), self.config)
        now = time.monotonic()  # each object was listed by now: its settling starts no later
        for objs in listing.objects.values():
            for obj in objs:
                self._seen.setdefault(obj.key, now)
        grown = {
            tp_id(topic, partition)
            for topic, partition in listing.objects
            if self._checked.get(topic, -1) < partition
        }
        if grown:
            check_destinations(self.config, listing)
            for topic, partition in listing.objects:
                self._checked[topic] = max(self._checked.get(topic, -1), partition)
        self._listing = listing
        return listing

    def initialOffset(self) -> dict[str, Any]:
        return {}

    def _settled_listing(self, start: Offsets) -> Listing:
        """A listing in which every object still to publish has settled, or a new one listed
        since (:mod:`s3connect.source.settling`): waits at most ``listing.settle.ms``."""
        listing = self._list()
        settle_s = self.config.streaming.listing_settle_ms / 1000
        wait = settle_wait(listing.objects, start, self._seen, time.monotonic(), settle_s)
        if wait > 0:
            time.sleep(wait)
            listing = self._list()
        return listing

    def prepareForTriggerAvailableNow(self) -> None:
        self._available_now = True  # the target listing is taken by the first latestOffset

    def getDefaultReadLimit(self) -> ReadLimit:
        limit = self.config.streaming.max_objects_per_trigger
        return ReadAllAvailable() if limit is None else ReadMaxFiles(limit)

    def latestOffset(self, start: dict[str, Any], limit: ReadLimit) -> dict[str, Any]:
        begin = offsets_from_json(start)
        if not self._available_now:
            listing = self._settled_listing(begin)
        elif self._target is None:
            listing = self._target = self._settled_listing(begin)
        else:
            listing = self._target
        settle_s = self.config.streaming.listing_settle_ms / 1000
        ready = settled(listing.objects, self._seen, time.monotonic(), settle_s)
        max_objects = limit.max_files if isinstance(limit, ReadMaxFiles) else None
        return offsets_to_json(latest_offsets(ready, begin, max_objects))

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> Sequence[InputPartition]:
        begin, stop = offsets_from_json(start), offsets_from_json(end)
        listing = self._listing
        known = set() if listing is None else {o.key for v in listing.objects.values() for o in v}
        if listing is None or any(p.key not in known for p in stop.values()):
            listing = self._list()  # a restart replaying a batch planned by an earlier run
        out: list[InputPartition] = []
        for entry, position in sorted(stop.items()):
            topic, partition = tp_of(entry)
            slices = plan_slices(
                listing.objects.get((topic, partition), []),
                begin.get(entry),
                position,
                contiguous=self.config.partitioner.name == "default",
                flush_size=self.config.flush_size,
            )
            if slices:
                work = _Work(
                    topic,
                    partition,
                    self.config.destination(topic),
                    1 + max(p for t, p in listing.objects if t == topic),
                    tuple(slices),
                )
                out.append(InputPartition(work))
        return out

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        """Publish the records of one source topic-partition, in order, to the same partition
        of their destinations (:class:`~s3connect.kafka.publisher.Publisher`); once Kafka has
        them all, their counts (:data:`ROW_SCHEMA`). ByteArray values published unchanged
        (:func:`plain_bytes`) go column-wise, object by object, without a record object each."""
        work: _Work = partition.value
        with Publisher(self.config.producer_options()) as publisher:
            counts = self._publish(work, publisher)
        return _counts(work, counts)

    def _publish(self, work: _Work, publisher: Publisher) -> Counter[str]:
        """Send the work's records; how many went to each destination topic."""
        storage = source_storage(self.config)
        column_topic = work.destination if plain_bytes(self.config) else None
        counts: Counter[str] = Counter()
        for piece in work.slices:
            obj = piece.obj
            if column_topic is not None and not (obj.keys_key or obj.headers_key or obj.tombstones):
                values = read_values(
                    storage, self.config, obj, skip=piece.skip, stop=piece.stop, bound=piece.bound
                )
                if values is not None:
                    publisher.send_values(column_topic, work.partition, values)
                    counts[column_topic] += len(values)
                continue
            for record in self._records(work, piece, storage):
                publisher.send(
                    record.topic, work.partition, record.value, record.key, record.headers
                )
                counts[record.topic] += 1
        return counts

    def _records(self, work: _Work, piece: ObjectSlice, storage: Storage) -> Iterator[SourceRecord]:
        """The records of one slice, record by record (converters, transforms, companions)."""
        if self._serializers is None:
            self._serializers = (value_serializer(self.config), key_serializer_for(self.config))
            self._chain = self.config.routing.chain()
        serializer, key_serializer = self._serializers
        for record in read_object(
            storage,
            self.config,
            piece.obj,
            destination=work.destination,
            skip=piece.skip,
            stop=piece.stop,
            bound=piece.bound,
            serializer=serializer,
            key_serializer=key_serializer,
            chain=self._chain,
        ):
            if work.destination is None and record.topic not in self._created:
                self._ensure_destination(work, record.topic)
                self._created.add(record.topic)
            yield record

    def _ensure_destination(self, work: _Work, destination: str) -> None:
        """A destination a transform chose for a record: not the source topic (unless allowed),
        and present with enough partitions (created when ``topic.creation.enable``)."""
        check_not_source(self.config, work.topic, destination)
        ensure_destinations(self.config, {destination: (work.topic, work.partitions)})

    def commit(self, end: dict[str, Any]) -> None:
        """Nothing to clean up: S3 objects stay (the sink owns them)."""


class S3SourceDataSource(DataSource):
    """``spark.readStream.format("s3connect_s3_source")``, made for one config by
    :func:`configured_source`."""

    CONFIG: ClassVar[SourceConfig | None] = None

    @classmethod
    def name(cls) -> str:
        return SOURCE_FORMAT

    def schema(self) -> str:
        return ROW_SCHEMA

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        if self.CONFIG is None:
            raise ValueError("use configured_source(config): the source's config is not set")
        return S3StreamReader(self.CONFIG)


def configured_source(config: SourceConfig) -> type[S3SourceDataSource]:
    """The data source class for ``config``. The config (credentials included) lives in the class
    body, which Spark pickles by value to the Python workers; it is never a Spark option, so no
    plan, Spark UI page or event log shows it."""
    return type(
        "S3SourceDataSource",
        (S3SourceDataSource,),
        {"CONFIG": config, "__module__": __name__, "__qualname__": "configured_source.<locals>"},
    )
