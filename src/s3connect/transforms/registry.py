"""Every transform and predicate class a config may name, spelled exactly as Kafka (or
Confluent, for ``ExtractTopic``) spells it, with the function that configures it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from s3connect.transforms.base import KAFKA_PACKAGE, Predicate, Side, Transformation
from s3connect.transforms.cast import Cast
from s3connect.transforms.extract import ExtractField, HoistField, ValueToKey
from s3connect.transforms.extract_topic import EXTRACT_TOPIC, ExtractTopic
from s3connect.transforms.filter import Filter
from s3connect.transforms.flatten import Flatten
from s3connect.transforms.headers import DropHeaders, HeaderFrom, InsertHeader
from s3connect.transforms.insert_field import InsertField
from s3connect.transforms.mask_field import MaskField
from s3connect.transforms.predicates import (
    HasHeaderKey,
    RecordIsTombstone,
    TopicNameMatches,
)
from s3connect.transforms.replace_field import ReplaceField
from s3connect.transforms.routers import RegexRouter, TimestampRouter
from s3connect.transforms.schema_metadata import SetSchemaMetadata
from s3connect.transforms.settings import Settings
from s3connect.transforms.timestamp_converter import TimestampConverter

__all__ = ["PREDICATES", "TRANSFORMATIONS"]

TransformationFactory = Callable[[Settings], Transformation | None]
PredicateFactory = Callable[[Settings], Predicate | None]

_SIDED: dict[str, Callable[[Settings, Side], Transformation | None]] = {
    "Cast": Cast.configure,
    "ExtractField": ExtractField.configure,
    "Flatten": Flatten.configure,
    "HeaderFrom": HeaderFrom.configure,
    "HoistField": HoistField.configure,
    "InsertField": InsertField.configure,
    "MaskField": MaskField.configure,
    "ReplaceField": ReplaceField.configure,
    "SetSchemaMetadata": SetSchemaMetadata.configure,
    "TimestampConverter": TimestampConverter.configure,
}
_PLAIN: dict[str, TransformationFactory] = {
    "DropHeaders": DropHeaders.configure,
    "Filter": Filter.configure,
    "InsertHeader": InsertHeader.configure,
    "RegexRouter": RegexRouter.configure,
    "TimestampRouter": TimestampRouter.configure,
    "ValueToKey": ValueToKey.configure,
}


def _bind(
    configure: Callable[[Settings, Side], Transformation | None], side: Side
) -> TransformationFactory:
    return lambda s: configure(s, side)


def _all_transformations() -> dict[str, TransformationFactory]:
    found: dict[str, TransformationFactory] = {}
    for name, sided in _SIDED.items():
        for side in Side:
            found[f"{KAFKA_PACKAGE}.{name}${side.value}"] = _bind(sided, side)
    for name, plain in _PLAIN.items():
        found[f"{KAFKA_PACKAGE}.{name}"] = plain
    for side in Side:
        found[f"{EXTRACT_TOPIC}${side.value}"] = _bind(ExtractTopic.configure, side)
    found[f"{EXTRACT_TOPIC}$Header"] = lambda s: ExtractTopic.configure(s, None)
    return dict(sorted(found.items()))


TRANSFORMATIONS: Mapping[str, TransformationFactory] = MappingProxyType(_all_transformations())
"""By class name (``org.apache.kafka.connect.transforms.InsertField$Value``), the transforms."""

PREDICATES: Mapping[str, PredicateFactory] = MappingProxyType(
    {
        HasHeaderKey.class_name: HasHeaderKey.configure,
        RecordIsTombstone.class_name: RecordIsTombstone.configure,
        TopicNameMatches.class_name: TopicNameMatches.configure,
    }
)
"""By class name (``org.apache.kafka.connect.transforms.predicates.HasHeaderKey``)."""
