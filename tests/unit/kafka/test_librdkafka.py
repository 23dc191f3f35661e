"""Java client properties as librdkafka's: what a user pasted from Kafka Connect makes a
confluent-kafka producer (constructed for real: librdkafka refuses unknown properties there),
or fails at start naming the key and what to add."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from confluent_kafka import Producer

from s3connect.config.sink import SinkConfig
from s3connect.errors import ConfigError
from s3connect.kafka.admin import client_props
from s3connect.kafka.librdkafka import librdkafka_props, producer_props

PLAIN = (
    "org.apache.kafka.common.security.plain.PlainLoginModule required "
    'username="ABCKEY" password="s3cr\\"et";'
)
SCRAM = (
    'org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";'
)


def _producer(props: dict[str, str | int | float | bool]) -> None:
    Producer({**props, "log_level": 0}).flush(0)  # raises on a property librdkafka refuses


def test_confluent_cloud_api_key_jaas_gives_username_and_password() -> None:
    options = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
               "sasl.jaas.config": PLAIN}  # fmt: skip
    props = client_props("127.0.0.1:1", options)
    assert props == {
        "bootstrap.servers": "127.0.0.1:1",
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "PLAIN",
        "sasl.username": "ABCKEY",
        "sasl.password": 's3cr"et',
    }
    _producer(props)


def test_scram_jaas_and_an_explicit_librdkafka_username_wins() -> None:
    options = {"sasl.mechanism": "SCRAM-SHA-512", "sasl.jaas.config": SCRAM, "sasl.username": "x"}
    assert librdkafka_props(options) == {
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "x",
        "sasl.password": "p",
    }


def test_java_only_tls_settings_are_left_out_and_pem_stores_translated(tmp_path: Path) -> None:
    pem = tmp_path / "ca.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=test", "-keyout", str(tmp_path / "key.pem"), "-out", str(pem)],
        check=True, capture_output=True,
    )  # fmt: skip
    options = {
        "security.protocol": "SSL",
        "ssl.truststore.location": str(pem),
        "ssl.truststore.type": "PEM",
        "ssl.protocol": "TLSv1.3",
        "ssl.enabled.protocols": "TLSv1.3,TLSv1.2",
        "ssl.endpoint.identification.algorithm": "",
        "ssl.cipher.suites": "TLS_AES_128_GCM_SHA256",
        "socket.connection.setup.timeout.max.ms": "30000",
        "client.id": "s3c",
    }
    props = client_props("127.0.0.1:1", options)
    assert props == {
        "bootstrap.servers": "127.0.0.1:1",
        "security.protocol": "SSL",
        "ssl.ca.location": str(pem),
        "ssl.endpoint.identification.algorithm": "none",
        "client.id": "s3c",
    }
    _producer(props)


def test_pem_key_store_and_pkcs12_key_store() -> None:
    pem = {"ssl.keystore.type": "PEM", "ssl.keystore.location": "/k.pem", "ssl.key.password": "k"}
    assert librdkafka_props(pem) == {
        "ssl.key.password": "k",
        "ssl.key.location": "/k.pem",
        "ssl.certificate.location": "/k.pem",
    }
    inline = {"ssl.keystore.key": "KEY", "ssl.keystore.certificate.chain": "CERT"}
    assert librdkafka_props(inline) == {"ssl.key.pem": "KEY", "ssl.certificate.pem": "CERT"}
    p12 = {"ssl.keystore.type": "PKCS12", "ssl.keystore.location": "/k.p12",
           "ssl.keystore.password": "pw"}  # fmt: skip
    assert librdkafka_props(p12) == {
        "ssl.keystore.location": "/k.p12",
        "ssl.keystore.password": "pw",
    }


@pytest.mark.parametrize(
    ("options", "key", "add"),
    [
        ({"ssl.truststore.location": "/t.jks", "ssl.truststore.password": "pw"},
         "kafka.ssl.truststore.location: a JKS trust store", "kafka.ssl.ca.location"),
        ({"ssl.truststore.location": "/t.p12", "ssl.truststore.type": "PKCS12"},
         "kafka.ssl.truststore.location: a PKCS12 trust store", "kafka.ssl.ca.location"),
        ({"ssl.keystore.location": "/k.jks", "ssl.keystore.password": "pw"},
         "kafka.ssl.keystore.location: a JKS key store", "kafka.ssl.certificate.location"),
    ],
)  # fmt: skip
def test_stores_librdkafka_cannot_read_fail_naming_the_key(
    options: dict[str, str], key: str, add: str
) -> None:
    with pytest.raises(ConfigError) as info:
        librdkafka_props(options)
    assert str(info.value).startswith(key) and add in str(info.value)
    assert "pw" not in str(info.value)


def test_a_jks_store_with_the_librdkafka_keys_beside_it_is_fine() -> None:
    options = {"ssl.truststore.location": "/t.jks", "ssl.ca.location": "/ca.pem",
               "ssl.keystore.location": "/k.jks", "ssl.keystore.password": "pw",
               "ssl.certificate.location": "/c.pem", "ssl.key.location": "/k.pem"}  # fmt: skip
    assert librdkafka_props(options) == {
        "ssl.ca.location": "/ca.pem",
        "ssl.certificate.location": "/c.pem",
        "ssl.key.location": "/k.pem",
    }


def _sink(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "name": "t", "topics": "events", "kafka.bootstrap.servers": "127.0.0.1:1",
        "checkpoint.location": str(tmp_path / "cp"), "s3.bucket.name": "b",
        "format.class": "JsonFormat", "flush.size": "3",
        "kafka.ssl.truststore.location": "/t.jks", **extra,
    }  # fmt: skip


def test_a_sink_with_a_jks_trust_store_fails_at_start_only_with_a_dead_letter_queue(
    tmp_path: Path,
) -> None:
    SinkConfig.from_mapping(_sink(tmp_path))  # Spark's Java client reads the JKS store
    dlq = {"errors.tolerance": "all", "errors.deadletterqueue.topic.name": "dlq"}
    with pytest.raises(ConfigError) as info:
        SinkConfig.from_mapping(_sink(tmp_path, **dlq))
    assert "kafka.ssl.truststore.location: a JKS trust store" in str(info.value)


def test_producer_props_rename_java_producer_properties_and_leave_java_only_ones_out() -> None:
    props = producer_props(
        {
            "bootstrap.servers": "b:9092",
            "max.request.size": "2097152",
            "send.buffer.bytes": "-1",
            "receive.buffer.bytes": "65536",
            "buffer.memory": "33554432",
            "max.block.ms": "60000",
            "partitioner.class": "org.apache.kafka.clients.producer.RoundRobinPartitioner",
            "partitioner.ignore.keys": "true",
            "metrics.recording.level": "INFO",
            "compression.gzip.level": "5",
            "acks": "all",
            "linger.ms": "20",
            "sasl.jaas.config": PLAIN,
        }
    )
    assert props == {
        "bootstrap.servers": "b:9092",
        "message.max.bytes": "2097152",
        "socket.send.buffer.bytes": "0",
        "socket.receive.buffer.bytes": "65536",
        "queue.buffering.max.kbytes": "32768",
        "delivery.timeout.ms": "120000",
        "acks": "all",
        "linger.ms": "20",
        "sasl.username": "ABCKEY",
        "sasl.password": 's3cr"et',
    }
    _producer(dict(props))
    assert producer_props({"delivery.timeout.ms": "30000"})["delivery.timeout.ms"] == "30000"
