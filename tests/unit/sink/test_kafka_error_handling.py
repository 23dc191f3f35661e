"""Kafka Connect's error handling tests, one test each, on our dead letters and retries.

Ports of ``ErrorReporterTest``, ``RetryWithToleranceOperatorTest`` and
``WorkerErrantRecordReporterTest`` (connect/runtime, package
``org.apache.kafka.connect.runtime.errors``; Apache Kafka trunk 1eb7644349cb). Kafka's mocked
producer becomes assertions on the record we would send (:func:`dlq_record`, and
:class:`DeadLetterQueue` with a fake producer), its ``ProcessingContext`` a
:class:`DeadLetter` (the failing record, stage, executing class and error), Kafka's
``RetryWithToleranceOperator`` our writer's tolerance rules and the Schema Registry retries
(``errors.retry.timeout`` / ``errors.retry.delay.max.ms``) with a fake clock. Tests of Java
plumbing (metrics objects, futures, the stop latch, closing a list of reporters), of source
stages (``TASK_POLL``, ``KAFKA_PRODUCE``, ...) and of header converters (ours never fail) are not
ported. ``__connect.errors.exception.class.name`` and ``.stacktrace`` name Python's classes, and
``.exception.message`` ends with the record's place, as the README says.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any, cast

import pytest
from confluent_kafka.schema_registry.error import SchemaRegistryError as ClientError

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import Header, RawRecord
from s3connect.convert.registry.client import Registry, RegistrySettings, RetryPolicy
from s3connect.errors import SINK_TASK_CLASS, RecordError, TransformationError
from s3connect.sink.context import build_writer_context
from s3connect.sink.dead_letters import (
    DeadLetter,
    context_headers,
    dead_letter_row,
    dlq_record,
    failure_error,
    java_stacktrace,
    log_message,
)
from s3connect.sink.writer import TopicPartitionWriter
from s3connect.spark import dead_letter_queue
from s3connect.spark.dead_letter_queue import DeadLetterQueue, ensure_dlq_topic

TOPIC = "test-topic"
DLQ_TOPIC = "test-topic-errors"
CONNECTOR = "job"  # ErrorReporterTest.TASK_ID: new ConnectorTaskId("job", 0)
JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter"
TRANSFORMATION = "org.apache.kafka.connect.transforms.Transformation"
TRANSFORMS = "org.apache.kafka.connect.transforms"
PREFIX = "__connect.errors."


def _config(tmp_path: Path, **extra: str) -> SinkConfig:
    return SinkConfig.from_mapping(
        {
            "name": CONNECTOR,
            "topics": TOPIC,
            "kafka.bootstrap.servers": "127.0.0.1:9092",
            "checkpoint.location": str(tmp_path / "ck"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp_path / 'out'}",
            "format.class": "json",
            "value.converter.schemas.enable": "false",
            "flush.size": "3",
            **extra,
        }
    )


def _writer(tmp_path: Path, **extra: str) -> TopicPartitionWriter:
    return TopicPartitionWriter(build_writer_context(_config(tmp_path, **extra)), TOPIC, 5)


def _processing_context(tmp_path: Path) -> DeadLetter:
    """ErrorReporterTest.processingContext: the record (test-topic, 5, 100, key "ab", value "x",
    no timestamp) failing in the KEY_CONVERTER stage of JsonConverter, as our writer makes it."""
    writer = _writer(tmp_path, **{
        "errors.tolerance": "all", "errors.log.enable": "true",
        "store.kafka.keys": "true", "keys.format.class": "json",
    })  # fmt: skip
    writer.write([RawRecord(TOPIC, 5, 100, None, b"ab", b"x")], 0)
    [letter] = writer.dead_letters
    assert (letter.stage, letter.class_name) == ("KEY_CONVERTER", JSON_CONVERTER)
    return letter


def _transformation_letter(raw: RawRecord, error: Exception) -> DeadLetter:
    """ProcessingContext of ``raw`` failing in stage TRANSFORMATION (Transformation.class)."""
    try:
        raise TransformationError(
            str(error), topic=raw.topic, partition=raw.partition, offset=raw.offset,
            class_name=TRANSFORMATION,
        ) from error  # fmt: skip
    except TransformationError as raised:
        return DeadLetter.of(raw, raised)


def _header_value(headers: list[Header], name: str) -> bytes | None:
    """ProducerRecord.headers().lastHeader(name).value()."""
    return [v for k, v in headers if k == name][-1]


class _Producer:
    """Stands in for the DLQ's KafkaProducer: records what is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.flushed = 0

    def produce(self, topic: str, **kwargs: Any) -> None:
        self.sent.append({"topic": topic, **kwargs})

    def poll(self, timeout: float) -> int:
        return 0

    def flush(self, timeout: float) -> int:
        self.flushed += 1
        return 0


def _reporters(tmp_path: Path, **extra: str) -> tuple[DeadLetterQueue, _Producer]:
    dlq = DeadLetterQueue(_config(tmp_path, **extra))
    producer = _Producer()
    dlq._producer = cast(Any, producer)
    return dlq, producer


def _report(dlq: DeadLetterQueue, *letters: DeadLetter) -> None:
    dlq.handle(cast(Any, None), [dead_letter_row(d) for d in letters], "app", 0)


def _logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The ERROR lines the reporters logged."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# ---------------------------------------------------------------------------------------------
# ErrorReporterTest


def test_dlq_config_with_empty_topic_name(tmp_path: Path) -> None:
    # No topic (or a blank one, trimmed as DeadLetterQueueReporter does): nothing is sent.
    for extra in ({}, {"errors.deadletterqueue.topic.name": "  "}):
        dlq, producer = _reporters(tmp_path, **extra)
        _report(dlq, _processing_context(tmp_path))
        assert producer.sent == []


def test_dlq_config_with_valid_topic_name(tmp_path: Path) -> None:
    dlq, producer = _reporters(tmp_path, **{"errors.deadletterqueue.topic.name": DLQ_TOPIC})
    _report(dlq, _processing_context(tmp_path))
    assert len(producer.sent) == 1
    [sent] = producer.sent
    # The original record's key, value and headers; no timestamp: the producer stamps it.
    assert (sent["topic"], sent["key"], sent["value"], sent["headers"]) == (
        DLQ_TOPIC, b"ab", b"x", [],
    )  # fmt: skip
    assert sent["timestamp"] == 0  # librdkafka's "now"


def test_report_dlq_twice(tmp_path: Path) -> None:
    dlq, producer = _reporters(tmp_path, **{"errors.deadletterqueue.topic.name": DLQ_TOPIC})
    letter = _processing_context(tmp_path)
    _report(dlq, letter)
    _report(dlq, letter)
    assert len(producer.sent) == 2


def test_close_dlq(tmp_path: Path) -> None:
    dlq, producer = _reporters(tmp_path, **{"errors.deadletterqueue.topic.name": DLQ_TOPIC})
    dlq.close()
    assert producer.flushed == 1 and dlq._producer is None


def test_log_on_disabled_log_reporter(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    dlq, _ = _reporters(tmp_path)
    _report(dlq, _processing_context(tmp_path))
    assert len(_logged(caplog)) == 0  # total-errors-logged: 0


def test_log_on_enabled_log_reporter(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    dlq, _ = _reporters(tmp_path, **{"errors.log.enable": "true"})
    _report(dlq, _processing_context(tmp_path))
    assert len(_logged(caplog)) == 1  # total-errors-logged: 1


def test_log_message_with_no_records(tmp_path: Path) -> None:
    msg = log_message(_processing_context(tmp_path), CONNECTOR, include_messages=False)
    assert msg == (
        "Error encountered in task job-0. Executing stage 'KEY_CONVERTER' with class "
        "'org.apache.kafka.connect.json.JsonConverter'."
    )


def test_log_message_with_sink_records(tmp_path: Path) -> None:
    msg = log_message(_processing_context(tmp_path), CONNECTOR, include_messages=True)
    assert msg == (
        "Error encountered in task job-0. Executing stage 'KEY_CONVERTER' with class "
        "'org.apache.kafka.connect.json.JsonConverter', where consumed record is "
        "{topic='test-topic', partition=5, offset=100}."
    )


def test_log_report_and_return_future(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    letter = _processing_context(tmp_path)
    msg = log_message(letter, CONNECTOR, include_messages=True)
    assert msg == (
        "Error encountered in task job-0. Executing stage 'KEY_CONVERTER' with class "
        "'org.apache.kafka.connect.json.JsonConverter', where consumed record is "
        "{topic='test-topic', partition=5, offset=100}."
    )
    dlq, _ = _reporters(tmp_path, **{
        "errors.log.enable": "true", "errors.log.include.messages": "true",
    })  # fmt: skip
    _report(dlq, letter)
    # log.error(message(context), context.error()): the message, then the stack trace
    assert _logged(caplog) == [f"{msg}\n{letter.stacktrace.rstrip()}"]
    assert _logged(caplog)[0].startswith(f"{msg}\ns3connect.errors.ConversionError: key could not")


def test_set_dlq_configs(tmp_path: Path) -> None:
    configuration = _config(tmp_path, **{"errors.deadletterqueue.topic.name": DLQ_TOPIC})
    assert configuration.errors.dlq_topic == DLQ_TOPIC
    configuration = _config(tmp_path, **{"errors.deadletterqueue.topic.replication.factor": "7"})
    assert configuration.errors.dlq_replication_factor == 7


def test_dlq_header_consumer_record() -> None:
    raw = RawRecord("source-topic", 7, 10, None, b"source-key", b"source-value")
    letter = _transformation_letter(raw, Exception("Test Exception"))
    record = dlq_record(letter, DLQ_TOPIC, CONNECTOR, context=True)
    headers = record.headers

    def header(suffix: str) -> str:
        value = _header_value(headers, PREFIX + suffix)
        assert value is not None
        return value.decode("utf-8")

    assert header("topic") == "source-topic"
    assert header("partition") == "7"
    assert header("offset") == "10"
    assert header("connector.name") == CONNECTOR
    assert header("task.id") == "0"
    assert header("stage") == "TRANSFORMATION"
    assert header("class.name") == TRANSFORMATION
    # Python's class, and the message with the record's place (README)
    assert header("exception.class.name") == "s3connect.errors.TransformationError"
    assert header("exception.message") == (
        "Test Exception (topic='source-topic', partition=7, offset=10)"
    )
    assert header("exception.stacktrace") != ""
    assert header("exception.stacktrace").startswith(
        "s3connect.errors.TransformationError: Test Exception"
    )
    assert (record.topic, record.key, record.value) == (
        DLQ_TOPIC, b"source-key", b"source-value",
    )  # fmt: skip


def test_dlq_header_on_null_exception_message() -> None:
    # An error without a message (Java's new NullPointerException(); Python's KeyError()).
    raw = RawRecord("source-topic", 7, 10, None, b"source-key", b"source-value")
    try:
        raise KeyError()
    except KeyError as error:
        letter = DeadLetter(
            raw, "TRANSFORMATION", TRANSFORMATION, "KeyError", "", java_stacktrace(error)
        )
    headers = context_headers(letter, CONNECTOR)
    assert _header_value(headers, PREFIX + "topic") == b"source-topic"
    assert _header_value(headers, PREFIX + "partition") == b"7"
    assert _header_value(headers, PREFIX + "offset") == b"10"
    assert _header_value(headers, PREFIX + "connector.name") == CONNECTOR.encode()
    assert _header_value(headers, PREFIX + "task.id") == b"0"
    assert _header_value(headers, PREFIX + "stage") == b"TRANSFORMATION"
    assert _header_value(headers, PREFIX + "class.name") == TRANSFORMATION.encode()
    assert _header_value(headers, PREFIX + "exception.class.name") == b"KeyError"
    assert _header_value(headers, PREFIX + "exception.message") is None
    trace = _header_value(headers, PREFIX + "exception.stacktrace")
    assert trace is not None and trace != b""
    assert trace.startswith(b"KeyError\n\tat ")


def test_dlq_header_is_appended() -> None:
    raw = RawRecord(
        "source-topic", 7, 10, None, b"source-key", b"source-value",
        ((PREFIX + "topic", b"dummy"),),
    )  # fmt: skip
    letter = _transformation_letter(raw, Exception("Test Exception"))
    headers = dlq_record(letter, DLQ_TOPIC, CONNECTOR, context=True).headers
    appearances = sum(1 for k, _ in headers if k.lower() == PREFIX + "topic")
    assert _header_value(headers, PREFIX + "topic") == b"source-topic"
    assert appearances == 2


def test_create_and_setup_creates_a_missing_topic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # DeadLetterQueueReporter.createAndSetup: a missing topic is created with one partition and
    # errors.deadletterqueue.topic.replication.factor; an existing one is left alone.
    created: list[Any] = []
    existing: dict[str, Any] = {}
    monkeypatch.setattr(dead_letter_queue, "admin_client", lambda *a: object())
    monkeypatch.setattr(dead_letter_queue, "topic_metadata", lambda admin: existing)
    monkeypatch.setattr(
        dead_letter_queue, "create_topics", lambda a, new, what: created.extend(new)
    )
    config = _config(tmp_path, **{
        "errors.deadletterqueue.topic.name": DLQ_TOPIC,
        "errors.deadletterqueue.topic.replication.factor": "7",
    })  # fmt: skip
    ensure_dlq_topic(config)
    assert [(t.topic, t.num_partitions, t.replication_factor) for t in created] == [
        (DLQ_TOPIC, 1, 7)
    ]
    existing[DLQ_TOPIC] = dataclasses.make_dataclass("Meta", ["error"])(None)
    created.clear()
    ensure_dlq_topic(config)
    assert created == []


# ---------------------------------------------------------------------------------------------
# RetryWithToleranceOperatorTest


def test_execute_failed(tmp_path: Path) -> None:
    # executeFailed(TASK_PUT, SinkTask.class, ...) under errors.tolerance=all: reported, no throw
    # (Confluent's task reports a record it cannot write, here a null key with keys stored).
    writer = _writer(tmp_path, **{
        "errors.tolerance": "all", "errors.log.enable": "true",
        "store.kafka.keys": "true", "keys.format.class": "json", "key.converter": "string",
    })  # fmt: skip
    writer.write([RawRecord(TOPIC, 5, 0, None, None, b"{}")], 0)
    [letter] = writer.dead_letters
    assert (letter.stage, letter.class_name) == ("TASK_PUT", SINK_TASK_CLASS)


def test_execute_failed_no_tolerance(tmp_path: Path) -> None:
    writer = _writer(tmp_path, **{
        "errors.log.enable": "true",
        "store.kafka.keys": "true", "keys.format.class": "json", "key.converter": "string",
    })  # fmt: skip
    writer.write([RawRecord(TOPIC, 5, 0, None, None, b"{}")], 0)
    assert writer.failure is not None  # reported, then the batch fails:
    error = failure_error(writer.failure)
    assert str(error).startswith("Tolerance exceeded in error handler: Key cannot be null")


def _tolerated(writer: TopicPartitionWriter, raw: RawRecord) -> DeadLetter:
    """RetryWithToleranceOperatorTest.testHandleExceptionInStage: executed under
    errors.tolerance=all, the failure is tolerated and the context failed (a dead letter)."""
    writer.write([raw], 0)
    [letter] = writer.dead_letters
    assert letter.raw == raw and writer.failure is None
    return letter


def test_handle_exception_in_transformations(tmp_path: Path) -> None:
    writer = _writer(tmp_path, **{
        "errors.tolerance": "all", "transforms": "cast",
        "transforms.cast.type": f"{TRANSFORMS}.Cast$Value", "transforms.cast.spec": "n:int32",
    })  # fmt: skip
    letter = _tolerated(writer, RawRecord(TOPIC, 5, 0, None, None, b'{"n":"x"}'))
    assert letter.stage == "TRANSFORMATION"


def test_handle_exception_in_value_converter(tmp_path: Path) -> None:
    writer = _writer(tmp_path, **{"errors.tolerance": "all"})
    letter = _tolerated(writer, RawRecord(TOPIC, 5, 0, None, None, b"{oops"))
    assert (letter.stage, letter.class_name) == ("VALUE_CONVERTER", JSON_CONVERTER)


def test_handle_exception_in_key_converter(tmp_path: Path) -> None:
    writer = _writer(tmp_path, **{
        "errors.tolerance": "all", "store.kafka.keys": "true", "keys.format.class": "json",
    })  # fmt: skip
    letter = _tolerated(writer, RawRecord(TOPIC, 5, 0, None, b"{oops", b"{}"))
    assert (letter.stage, letter.class_name) == ("KEY_CONVERTER", JSON_CONVERTER)


def test_throw_exception_in_task_put(tmp_path: Path) -> None:
    # A failure of the task that no reporter sees is not tolerated, whatever errors.tolerance
    # says: S3SinkTask throws a null value with behavior.on.null.values=fail from put().
    writer = _writer(tmp_path, **{"errors.tolerance": "all", "errors.log.enable": "true"})
    with pytest.raises(RecordError, match=r"behavior\.on\.null\.values=fail"):
        writer.write([RawRecord(TOPIC, 5, 0, None, b"k", None)], 0)
    assert writer.dead_letters == []


class _Clock:
    """MockTime(0, 0, 0) and the latch's await: each wait is recorded and advances the time."""

    def __init__(self) -> None:
        self.now_s = 0.0
        self.waits: list[int] = []

    def __call__(self) -> float:
        return self.now_s

    def sleep(self, seconds: float) -> None:
        self.waits.append(round(seconds * 1000))
        self.now_s += seconds


class _FailingRegistryClient:
    """The registry call (Operation): fails with ``failures`` first, then answers."""

    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.calls = 0

    def get_schema(self, schema_id: int, fmt: str | None = None) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "Success"


def _exec_and_handle_retriable_error(
    error_retry_timeout: int,
    num_retriable_exceptions_thrown: int,
    expected_waits: list[int],
    success_expected: bool,
) -> None:
    clock = _Clock()
    retriable = ClientError(503, 50301, "Test")  # the registry's RetriableException
    client = _FailingRegistryClient([retriable] * num_retriable_exceptions_thrown)
    registry = Registry(
        RegistrySettings("http://sr.example:8081"),
        RetryPolicy(error_retry_timeout, 60_000),  # ERRORS_RETRY_MAX_DELAY_DEFAULT
        client_factory=lambda conf: client,
        sleep=clock.sleep,
        clock=clock,
    )
    if success_expected:
        assert registry.schema(1, TOPIC) == "Success"
    else:
        with pytest.raises(Exception, match=r"HTTP 503 .*: Test"):
            registry.schema(1, TOPIC)
    assert clock.waits == expected_waits
    assert client.calls == num_retriable_exceptions_thrown + (1 if success_expected else 0)


def test_exec_and_handle_retriable_error_once() -> None:
    _exec_and_handle_retriable_error(6000, 1, [300], True)


def test_exec_and_handle_retriable_error_thrice() -> None:
    _exec_and_handle_retriable_error(6000, 3, [300, 600, 1200], True)


def test_exec_and_handle_retriable_error_with_infinite_retries() -> None:
    waits = [300, 600, 1200, 2400, 4800, 9600, 19200, 38400]
    _exec_and_handle_retriable_error(-1, 8, waits, True)


def test_exec_and_handle_retriable_error_with_max_retries_exceeded() -> None:
    _exec_and_handle_retriable_error(6000, 6, [300, 600, 1200, 2400, 1500], False)


def test_exec_and_handle_non_retriable_error() -> None:
    # A failure about the record (an id the registry does not know) is not retried: no wait,
    # one call, and the record fails (a converter failure: tolerated under errors.tolerance=all).
    clock = _Clock()
    client = _FailingRegistryClient([ClientError(404, 40403, "Schema not found")])
    registry = Registry(
        RegistrySettings("http://sr.example:8081"), RetryPolicy(6000, 60_000),
        client_factory=lambda conf: client, sleep=clock.sleep, clock=clock,
    )  # fmt: skip
    with pytest.raises(ValueError, match="Schema 1 not found"):
        registry.schema(1, TOPIC)
    assert client.calls == 1 and clock.waits == []


def test_backoff_limit() -> None:
    policy = RetryPolicy(5, 5000)
    now = 0.0
    waits = []
    for attempt in range(1, 6):
        wait = policy.backoff_ms(attempt, 5000, now, rand=lambda bound: bound - 1)
        waits.append(wait)
        now += wait
    # Simulate a small delay between calculating the deadline, and backing off
    now += 1
    # We may try to begin backing off after the deadline has already passed; make sure
    # that we don't wait with a negative timeout
    waits.append(policy.backoff_ms(6, 5000, now, rand=lambda bound: bound - 1))
    assert waits == [300, 600, 1200, 2400, 500, 0]
    # Above errors.retry.delay.max.ms the wait is a random one below it.
    assert RetryPolicy(-1, 1000).backoff_ms(5, float("inf"), 0, rand=lambda bound: 7) == 7


def test_tolerance_limit(tmp_path: Path) -> None:
    bad = [RawRecord(TOPIC, 5, i, None, None, b"{oops") for i in range(2)]
    with pytest.raises(RecordError, match="Tolerance exceeded in error handler"):
        _writer(tmp_path).write(bad[:1], 0)  # should not tolerate any errors
    tolerant = _writer(tmp_path, **{"errors.tolerance": "all"})
    tolerant.write(bad, 0)  # should tolerate all errors
    assert [d.raw.offset for d in tolerant.dead_letters] == [0, 1]
    # no tolerance is within limits if no failures
    _writer(tmp_path).write([RawRecord(TOPIC, 5, 0, None, None, b"{}")], 0)


def test_default_configs(tmp_path: Path) -> None:
    configuration = _config(tmp_path).errors
    assert configuration.retry_timeout_ms == 0
    assert configuration.retry_delay_max_ms == 60_000
    assert configuration.tolerance == "none"


def test_set_configs(tmp_path: Path) -> None:
    assert _config(tmp_path, **{"errors.retry.timeout": "100"}).errors.retry_timeout_ms == 100
    configuration = _config(tmp_path, **{"errors.retry.delay.max.ms": "100"})
    assert configuration.errors.retry_delay_max_ms == 100
    assert _config(tmp_path, **{"errors.tolerance": "none"}).errors.tolerance == "none"


def test_report_with_single_reporter(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    dlq, producer = _reporters(tmp_path, **{"errors.deadletterqueue.topic.name": DLQ_TOPIC})
    _report(dlq, _processing_context(tmp_path))
    assert len(producer.sent) == 1 and len(_logged(caplog)) == 0


def test_report_with_multiple_reporters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every reporter gets each failure, record by record in offset order, in the order the
    # Worker adds them: the DLQ, then the log.
    dlq, producer = _reporters(tmp_path, **{
        "errors.deadletterqueue.topic.name": DLQ_TOPIC, "errors.log.enable": "true",
        "errors.log.include.messages": "true",
    })  # fmt: skip
    letter = _processing_context(tmp_path)
    later = dataclasses.replace(letter, raw=dataclasses.replace(letter.raw, offset=101, key=b"cd"))
    order: list[str] = []
    monkeypatch.setattr(producer, "produce", lambda topic, **kw: order.append(f"dlq {kw['key']!r}"))
    monkeypatch.setattr(
        dead_letter_queue.logger, "error", lambda fmt, msg, trace: order.append(msg[-12:])
    )
    _report(dlq, later, letter)
    assert order == ["dlq b'ab'", "offset=100}.", "dlq b'cd'", "offset=101}."]


# ---------------------------------------------------------------------------------------------
# WorkerErrantRecordReporterTest


def _report_null_value(tmp_path: Path, errors_tolerated: bool) -> TopicPartitionWriter:
    """WorkerErrantRecordReporterTest.testReport: S3SinkTask hands a record to the errant record
    reporter (a null value it skips), which reports it with executeFailed."""
    writer = _writer(tmp_path, **{
        "errors.tolerance": "all" if errors_tolerated else "none",
        "errors.deadletterqueue.topic.name": DLQ_TOPIC,
        "behavior.on.null.values": "ignore",
    })  # fmt: skip
    writer.write([RawRecord(TOPIC, 5, 0, None, b"k", None)], 0)
    return writer


def test_report_errors_tolerated(tmp_path: Path) -> None:
    writer = _report_null_value(tmp_path, True)
    [letter] = writer.dead_letters  # reported, and the task goes on
    assert (letter.stage, letter.class_name) == ("TASK_PUT", SINK_TASK_CLASS)
    assert writer.failure is None


def test_report_no_tolerated_errors(tmp_path: Path) -> None:
    writer = _report_null_value(tmp_path, False)
    assert writer.failure is not None and writer.dead_letters == []  # reported, then:
    assert str(failure_error(writer.failure)).startswith("Tolerance exceeded in error handler")
