"""Schema Registry access for the Confluent converters: wire format, client, retries, caches.

Records written by Confluent's serializers start with the wire-format header: a magic byte 0,
the schema id as 4 big-endian bytes and, for Protobuf, the message indexes (zig-zag varints:
a count then the indexes; a lone 0 means ``[0]``); or, as ``DualSchemaIdDeserializer`` reads
first, the ``__key_schema_id`` / ``__value_schema_id`` header holds the schema id (magic byte 0)
or GUID (magic byte 1, 16 bytes) and the value is the payload alone. The schema is fetched by id
(or GUID) with confluent-kafka's ``SchemaRegistryClient`` (which caches by id), and its version
under the record's subject (``key.subject.name.strategy`` / ``value.subject.name.strategy``) is
looked up as Confluent's deserializers do for the Connect converters.

Failures are split in two:

* about the record (a bad header, an id or subject the registry does not know): ``ValueError``,
  which the pipeline turns into a ``ConversionError`` (dead letter queue with
  ``errors.tolerance=all``);
* about the registry (refused connection, timeout, 5xx, 401/403, ...):
  :class:`~s3connect.errors.SchemaRegistryError`, after retrying as Kafka Connect's
  ``RetryWithToleranceOperator`` does (:meth:`RetryPolicy.backoff_ms`): backoff from 300 ms,
  doubling, a random wait below ``errors.retry.delay.max.ms`` once above it, retried while the
  ``errors.retry.timeout`` ms since the first attempt have not passed, the last wait cut to
  that deadline (0: no retry beyond the client's own three, -1: forever). It fails the query;
  no record is skipped.
"""

from __future__ import annotations

import random
import re
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from s3connect.errors import SchemaRegistryError

__all__ = [
    "REGISTRY_CONVERTER_CLASSES",
    "SUBJECT_NAME_STRATEGIES",
    "TOPIC_NAME_STRATEGY",
    "ReadSettings",
    "Registry",
    "RegistrySettings",
    "RetryPolicy",
    "SchemaRef",
    "display_url",
    "header_schema_id",
    "read_message_indexes",
    "schema_id_of",
    "subject_name",
    "wire_header",
    "with_record_context",
]

REGISTRY_CONVERTER_CLASSES = {
    "avro": "io.confluent.connect.avro.AvroConverter",
    "jsonschema": "io.confluent.connect.json.JsonSchemaConverter",
    "protobuf": "io.confluent.connect.protobuf.ProtobufConverter",
}
"""Short name -> Confluent's Schema Registry converter class."""

_HIDDEN = "[hidden]"
# Confluent's error codes for "not found": subject, version, schema (id).
_NOT_FOUND = frozenset({40401, 40402, 40403})
RETRIES_DELAY_MIN_MS = 300
"""``RetryWithToleranceOperator.RETRIES_DELAY_MIN_MS``: the first backoff."""
_T = TypeVar("_T")


def display_url(url: str) -> str:
    """``url`` (comma-separated URLs too) without user info: safe to show."""
    out = []
    for part in url.split(","):
        part = part.strip()
        try:
            pieces = urlsplit(part)
        except ValueError:
            out.append(re.sub(r"//[^/@]*@", f"//{_HIDDEN}@", part))
            continue
        if pieces.username is not None or pieces.password is not None:
            host = pieces.hostname or ""
            netloc = f"{_HIDDEN}@{host}" + (f":{pieces.port}" if pieces.port else "")
            part = urlunsplit(pieces._replace(netloc=netloc))
        out.append(part)
    return ",".join(out)


@dataclass(frozen=True, repr=False)
class RegistrySettings:
    """Where a converter's Schema Registry is and how to authenticate to it.

    Args:
        url: ``schema.registry.url`` (one or more comma-separated base URLs).
        credentials_source: ``basic.auth.credentials.source``: ``URL`` (user info in the URL, if
            any) or ``USER_INFO`` (``basic.auth.user.info``).
        user_info: ``basic.auth.user.info``, ``user:password`` (a secret).
    """

    url: str
    credentials_source: str = "URL"
    user_info: str | None = None

    def client_config(self) -> dict[str, Any]:
        """The ``SchemaRegistryClient`` configuration (real credentials included)."""
        conf: dict[str, Any] = {"url": self.url}
        if self.credentials_source == "USER_INFO" and self.user_info:
            conf["basic.auth.user.info"] = self.user_info
        return conf

    @property
    def display_url(self) -> str:
        """The URL without credentials."""
        return display_url(self.url)

    def __repr__(self) -> str:
        info = _HIDDEN if self.user_info is not None else None
        return (
            f"RegistrySettings(url={self.display_url!r}, "
            f"credentials_source={self.credentials_source!r}, user_info={info!r})"
        )


@dataclass(frozen=True)
class RetryPolicy:
    """Kafka Connect's ``errors.retry.timeout`` / ``errors.retry.delay.max.ms``.

    Args:
        timeout_ms: how long a failing registry call is retried: 0 none, -1 forever.
        delay_max_ms: cap of the exponential backoff between attempts.
    """

    timeout_ms: int = 0
    delay_max_ms: int = 60_000

    def deadline_ms(self, start_ms: float) -> float:
        """Until when a call first made at ``start_ms`` may be retried (``execAndRetry``)."""
        return start_ms + self.timeout_ms if self.timeout_ms >= 0 else float("inf")

    def backoff_ms(
        self,
        attempt: int,
        deadline_ms: float,
        now_ms: float,
        rand: Callable[[int], int] = random.randrange,
    ) -> float:
        """The wait after failed attempt ``attempt`` (from 1), as ``RetryWithToleranceOperator
        .backoff``: 300 ms doubled per attempt; above ``delay_max_ms`` ``rand(delay_max_ms)``
        instead; never past ``deadline_ms`` (nor below 0)."""
        delay: float = RETRIES_DELAY_MIN_MS << min(attempt - 1, 62)
        if delay > self.delay_max_ms:
            delay = rand(self.delay_max_ms) if self.delay_max_ms > 0 else 0
        if delay + now_ms > deadline_ms:
            delay = max(0, deadline_ms - now_ms)
        return delay


_STRATEGY_PACKAGE = "io.confluent.kafka.serializers.subject."
SUBJECT_NAME_STRATEGIES = tuple(
    _STRATEGY_PACKAGE + name
    for name in ("TopicNameStrategy", "RecordNameStrategy", "TopicRecordNameStrategy")
)
"""The ``key.subject.name.strategy`` / ``value.subject.name.strategy`` classes read here."""
TOPIC_NAME_STRATEGY = SUBJECT_NAME_STRATEGIES[0]


@dataclass(frozen=True)
class ReadSettings:
    """A Schema Registry converter's settings that change what it reads.

    Args:
        subject_name_strategy: ``key.subject.name.strategy`` of a key converter,
            ``value.subject.name.strategy`` of a value one (full class name).
        use_latest_version: ``use.latest.version``: read with the subject's latest schema.
        fail_on_trailing_data: ``avro.fail.on.trailing.data``: bytes after the datum fail it.
    """

    subject_name_strategy: str = TOPIC_NAME_STRATEGY
    use_latest_version: bool = False
    fail_on_trailing_data: bool = False


def subject_name(
    topic: str,
    is_key: bool,
    strategy: str = TOPIC_NAME_STRATEGY,
    record_name: str | None = None,
) -> str:
    """The subject of a record's schema, as Confluent's ``SubjectNameStrategy`` classes name
    it: ``<topic>-key`` / ``<topic>-value`` (``TopicNameStrategy``), the record's full name
    (``RecordNameStrategy``) or ``<topic>-<full name>`` (``TopicRecordNameStrategy``).

    Raises:
        ValueError: a record strategy and a schema that is not a record (``record_name`` None).
    """
    if strategy == TOPIC_NAME_STRATEGY:
        return f"{topic}-key" if is_key else f"{topic}-value"
    if record_name is None:
        side = "key" if is_key else "value"
        raise ValueError(
            f"In configuration {side}.subject.name.strategy = {strategy}, the message {side} "
            "must only be a record schema"
        )
    return record_name if strategy == SUBJECT_NAME_STRATEGIES[1] else f"{topic}-{record_name}"


SchemaRef = int | str
"""A schema's id, or its GUID (text)."""


def wire_header(data: bytes, topic: str) -> int:
    """The schema id of a Confluent-framed record (the payload starts at byte 5).

    Raises:
        ValueError: the record does not start with a schema id (too short, magic byte not 0).
    """
    ref, _ = schema_id_of(data)
    if not isinstance(ref, int):
        raise ValueError("Error deserializing schema ID: a schema GUID where an id was expected")
    return ref


def schema_id_of(data: bytes) -> tuple[SchemaRef, int]:
    """``SchemaId.fromBytes``: (the schema id or GUID, where the bytes after it start) of a
    value starting with magic byte 0 and an id (4 bytes) or magic byte 1 and a GUID (16).

    Raises:
        ValueError: too short, or another magic byte.
    """
    if data[:1] == b"\x01" and len(data) >= 17:
        return str(uuid.UUID(bytes=bytes(data[1:17]))), 17
    if data[:1] not in (b"\x00", b"\x01"):
        message = "the value is empty" if not data else "Unknown magic byte!"
        raise ValueError(f"Error deserializing schema ID: {message}")
    if len(data) < 5 or data[0] == 1:
        raise ValueError(
            "Error deserializing schema ID: the record is shorter than the schema id of the "
            "Schema Registry wire format"
        )
    return int.from_bytes(data[1:5], "big"), 5


def header_schema_id(headers: Iterable[tuple[str, bytes | None]], is_key: bool) -> bytes | None:
    """The value of the last ``__key_schema_id`` / ``__value_schema_id`` header (None: none,
    or a null one), where ``DualSchemaIdDeserializer`` looks first."""
    name = "__key_schema_id" if is_key else "__value_schema_id"
    found = None
    for key, value in headers:
        if key == name:
            found = value
    return found


def read_message_indexes(data: bytes, pos: int) -> tuple[list[int], int]:
    """Protobuf's message indexes at ``pos``: (indexes, position of the message bytes).

    Raises:
        ValueError: the indexes are truncated or malformed.
    """

    def varint(at: int) -> tuple[int, int]:
        shift = result = 0
        while True:
            if at >= len(data) or shift > 63:
                raise ValueError("Invalid message indexes: truncated varint")
            b = data[at]
            at += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return (result >> 1) ^ -(result & 1), at
            shift += 7

    count, pos = varint(pos)
    if count == 0:
        return [0], pos
    if count < 0 or count > 100:
        raise ValueError(f"Invalid message indexes: count {count}")
    indexes = []
    for _ in range(count):
        index, pos = varint(pos)
        if index < 0:
            raise ValueError(f"Invalid message index {index}")
        indexes.append(index)
    return indexes, pos


class Registry:
    """A lazily created confluent-kafka ``SchemaRegistryClient`` with retries and error split.

    Built on the executors (converters are created there); the client caches schemas by id and
    versions by (subject, schema).
    """

    def __init__(
        self,
        settings: RegistrySettings,
        retry: RetryPolicy | None = None,
        *,
        client_factory: Callable[[dict[str, Any]], Any] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.retry = retry or RetryPolicy()
        self._factory = client_factory
        self._client: Any = None
        self._sleep = sleep
        self._clock = clock
        """Seconds, for the retries' deadline (``sleep`` waits seconds)."""

    @property
    def url(self) -> str:
        """The registry URL without credentials."""
        return self.settings.display_url

    def client(self) -> Any:
        """The underlying ``SchemaRegistryClient`` (created on first use)."""
        if self._client is None:
            conf = self.settings.client_config()
            try:
                if self._factory is not None:
                    self._client = self._factory(conf)
                else:
                    from confluent_kafka.schema_registry import SchemaRegistryClient

                    self._client = SchemaRegistryClient(conf)
            except (ValueError, TypeError) as exc:
                raise SchemaRegistryError(
                    f"the client cannot be configured: {_clean(str(exc), self.settings)}",
                    url=self.url,
                ) from None
        return self._client

    def schema(self, schema_id: SchemaRef, topic: str, fmt: str | None = None) -> Any:
        """The registered schema (``confluent_kafka.schema_registry.Schema``) with this id (or
        GUID).

        Raises:
            ValueError: the registry does not know the id.
            SchemaRegistryError: the registry cannot be used.
        """
        if isinstance(schema_id, str):
            guid = schema_id
            return self._call(
                f"fetch schema guid {guid}",
                topic,
                lambda: self.client().get_schema_by_guid(guid, fmt=fmt),
                missing=f"Schema {guid} not found in the Schema Registry",
            )
        return self._call(
            f"fetch schema id {schema_id}",
            topic,
            lambda: self.client().get_schema(schema_id, fmt=fmt),
            missing=f"Schema {schema_id} not found in the Schema Registry",
        )

    def version(self, subject: str, schema: Any, schema_id: SchemaRef, topic: str) -> int:
        """The version of ``schema`` under ``subject`` (as the deserializers' ``getVersion``).

        Raises:
            ValueError: the schema is not registered under the subject.
            SchemaRegistryError: the registry cannot be used.
        """
        registered = self._call(
            f"look up the version of schema id {schema_id} under subject {subject}",
            topic,
            lambda: self.client().lookup_schema(subject, schema, deleted=True),
            missing=f"the schema is not registered under subject {subject}",
        )
        if registered.version is None:
            raise ValueError(f"the registry gave no version of schema id {schema_id} in {subject}")
        return int(registered.version)

    def latest(self, subject: str, topic: str) -> Any:
        """The latest schema registered under ``subject`` (``RegisteredSchema``).

        Raises:
            ValueError: the registry does not know the subject.
            SchemaRegistryError: the registry cannot be used.
        """
        return self._call(
            f"fetch the latest version of {subject}",
            topic,
            lambda: self.client().get_latest_version(subject),
            missing=f"Subject {subject} not found",
        )

    def subjects(self) -> list[str]:
        """The registry's subjects.

        Raises:
            SchemaRegistryError: the registry cannot be used.
        """
        return list(
            self._call(
                "list the subjects", "", lambda: self.client().get_subjects(), missing="none"
            )
        )

    def referenced(self, subject: str, version: int, topic: str, fmt: str | None = None) -> Any:
        """A referenced schema (``RegisteredSchema``) by subject and version."""
        return self._call(
            f"fetch {subject} version {version}",
            topic,
            lambda: self.client().get_version(subject, version, True, fmt),
            missing=f"Referenced schema {subject} version {version} not found",
        )

    def _call(self, what: str, topic: str, fn: Callable[[], _T], *, missing: str) -> _T:
        from confluent_kafka.schema_registry.error import SchemaRegistryError as ClientError

        policy = self.retry
        deadline = policy.deadline_ms(self._clock() * 1000)
        attempts = 0
        while True:
            attempts += 1
            try:
                return fn()
            except SchemaRegistryError:
                raise
            except ClientError as exc:
                status, code = exc.http_status_code, exc.error_code
                if status == 404 and code in _NOT_FOUND:
                    raise ValueError(missing) from None
                problem = f"HTTP {status} (error code {code}): {exc.error_message}"
                if not _retriable(status):
                    raise self._error(what, problem, topic, attempts) from None
            except Exception as exc:  # network, TLS, malformed answers: the registry's fault
                problem = f"{type(exc).__name__}: {exc}"
            now = self._clock() * 1000
            if now >= deadline:  # execAndRetry: retried while time.milliseconds() < deadline
                raise self._error(what, problem, topic, attempts)
            self._sleep(policy.backoff_ms(attempts, deadline, now) / 1000)

    def _error(self, what: str, problem: str, topic: str, attempts: int) -> SchemaRegistryError:
        policy = self.retry
        return SchemaRegistryError(
            f"could not {what}: {_clean(problem, self.settings)} ({attempts} attempt"
            f"{'s' if attempts > 1 else ''}; errors.retry.timeout={policy.timeout_ms}, "
            f"errors.retry.delay.max.ms={policy.delay_max_ms})",
            url=self.url,
            topic=topic,
        )


def _retriable(status: int) -> bool:
    return status >= 500 or status in (408, 429)


def _clean(text: str, settings: RegistrySettings) -> str:
    """``text`` without the registry's credentials (error messages may echo URLs)."""
    for url in settings.url.split(","):
        url = url.strip()
        if url:
            text = text.replace(url, display_url(url))
    if settings.user_info:
        text = text.replace(settings.user_info, _HIDDEN)
    return text


def with_record_context(convert: Callable[[Any], _T]) -> Callable[[Any], _T]:
    """Wrap a raw-record converter so a :class:`SchemaRegistryError` names the record's
    partition and offset (converters only know the topic)."""

    def wrapped(raw: Any) -> _T:
        try:
            return convert(raw)
        except SchemaRegistryError as exc:
            raise exc.at(raw.topic, raw.partition, raw.offset) from exc.__cause__

    return wrapped
