"""Error handling keys: Kafka Connect's ``errors.*`` (``ConnectorConfig`` /
``SinkConnectorConfig``), the S3 sink's ``report.null.values.to.dlq`` and our ``dlq.table``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from s3connect.config.kafka import TopicsConfig, legal_topic_name
from s3connect.config.parsing import bool_text
from s3connect.config.reader import LONG_MAX, KeyReader

__all__ = ["ErrorsConfig"]

_REPLICATION = "must be a positive replication factor, or -1 for the broker's default"


@dataclass(frozen=True, kw_only=True)
class ErrorsConfig:
    """What a bad record does: stop the query, or become a dead letter (logged, published to a
    topic, appended to a table); and how long a failing Schema Registry call is retried."""

    tolerance: Literal["none", "all"] = "none"
    log_enable: bool = False
    log_include_messages: bool = False
    retry_timeout_ms: int = 0
    """``errors.retry.timeout``: how long a failing Schema Registry call is retried (-1: ever)."""
    retry_delay_max_ms: int = 60_000
    """``errors.retry.delay.max.ms``: the cap of the backoff between those retries."""
    dlq_topic: str | None = None
    """``errors.deadletterqueue.topic.name``; None: no dead letter queue topic."""
    dlq_replication_factor: int = 3
    dlq_context_headers: bool = False
    dlq_table: str | None = None
    """``dlq.table``: a Delta table (name or path) that also receives every dead letter."""
    report_null_values_to_dlq: bool = True
    """``report.null.values.to.dlq``: with ``behavior.on.null.values=ignore`` and an error
    reporter (:attr:`has_reporter`), each skipped null value is reported (Confluent's
    ``S3SinkTask.maybeReportNullRecordToDlq``)."""

    @property
    def has_reporter(self) -> bool:
        """Whether Kafka Connect would give the task an ``ErrantRecordReporter``
        (``errors.deadletterqueue.topic.name`` set or ``errors.log.enable=true``), or our
        ``dlq.table`` is set."""
        return self.dlq_topic is not None or self.log_enable or self.dlq_table is not None

    @classmethod
    def read(cls, r: KeyReader, topics: TopicsConfig) -> ErrorsConfig:
        """Read the keys; the DLQ topic may not be one of ``topics`` nor match
        ``topics.regex`` (as ``SinkConnectorConfig.validate``)."""
        tolerance = r.choice("errors.tolerance", "none", ("none", "all"), exact=True)
        log_enable = r.boolean("errors.log.enable", False)
        log_include_messages = r.boolean("errors.log.include.messages", False)
        # Used for Schema Registry calls (RetryWithToleranceOperator's semantics).
        retry_timeout = r.integer(  # Kafka's LONG, no validator: any negative retries forever
            "errors.retry.timeout", 0, -LONG_MAX - 1, LONG_MAX, "must be an integer (ms; -1: ever)"
        )
        retry_timeout = max(-1, retry_timeout)
        retry_delay_max = r.integer(
            "errors.retry.delay.max.ms", 60_000, 0, LONG_MAX, "must be an integer >= 0 (ms)"
        )
        context_headers = r.boolean("errors.deadletterqueue.context.headers.enable", False)
        replication = r.integer(
            "errors.deadletterqueue.topic.replication.factor", 3, -1, 32767, _REPLICATION
        )
        if replication == 0:
            r.invalid("errors.deadletterqueue.topic.replication.factor", "0", _REPLICATION)
        dlq = r.optional("errors.deadletterqueue.topic.name")
        table = r.optional("dlq.table")
        if dlq is not None:
            _check_dlq_topic(r, dlq, topics)
        report_nulls = r.boolean("report.null.values.to.dlq", True)
        return cls(
            tolerance="all" if tolerance == "all" else "none",
            log_enable=log_enable,
            log_include_messages=log_include_messages,
            retry_timeout_ms=retry_timeout,
            retry_delay_max_ms=retry_delay_max,
            dlq_topic=dlq,
            dlq_replication_factor=replication,
            dlq_context_headers=context_headers,
            dlq_table=table,
            report_null_values_to_dlq=report_nulls,
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names (``dlq.table`` only when set)."""
        d = {
            "errors.tolerance": self.tolerance,
            "errors.log.enable": bool_text(self.log_enable),
            "errors.log.include.messages": bool_text(self.log_include_messages),
            "errors.deadletterqueue.topic.name": self.dlq_topic or "",
            "errors.deadletterqueue.topic.replication.factor": str(self.dlq_replication_factor),
            "errors.deadletterqueue.context.headers.enable": bool_text(self.dlq_context_headers),
        }
        if self.dlq_table is not None:
            d["dlq.table"] = self.dlq_table
        d["errors.retry.timeout"] = str(self.retry_timeout_ms)
        d["errors.retry.delay.max.ms"] = str(self.retry_delay_max_ms)
        d["report.null.values.to.dlq"] = bool_text(self.report_null_values_to_dlq)
        return d


def _check_dlq_topic(r: KeyReader, dlq: str, topics: TopicsConfig) -> None:
    if not legal_topic_name(dlq):
        r.invalid(
            "errors.deadletterqueue.topic.name",
            dlq,
            "must be a legal topic name (letters, digits, '.', '_', '-')",
        )
    # SinkConnectorConfig.validate's words, on the key it names
    if dlq in topics.names:
        r.invalid(
            "topics",
            ",".join(topics.names),
            f"The DLQ topic '{dlq}' may not be included in the list of topics "
            f"('topics=[{', '.join(topics.names)}]') consumed by the connector",
        )
    if topics.regex is not None and _full_match(topics.regex, dlq):
        r.invalid(
            "topics.regex",
            topics.regex,
            f"The DLQ topic '{dlq}' may not be matched by the regex for the topics "
            f"('topics.regex={topics.regex}') consumed by the connector",
        )


def _full_match(regex: str, text: str) -> bool:
    try:
        return re.fullmatch(regex, text) is not None
    except re.error:
        return False
