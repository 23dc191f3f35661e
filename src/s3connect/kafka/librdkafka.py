"""Java Kafka client properties as librdkafka's, for the Python clients (confluent-kafka) of
the source (its topic checks and its publishing) and the sink's dead letter queue.

Users paste the ``kafka.*`` properties their Java clients (Kafka Connect, Spark's Kafka source
and sink) take. librdkafka names some of them differently and refuses the Java-only ones at
construction ("No such configuration property", "Java TrustStores are not supported"):

- ``sasl.jaas.config`` with ``PlainLoginModule`` or ``ScramLoginModule`` (Confluent Cloud's API
  keys among them) gives ``sasl.username`` / ``sasl.password``; another login module is left
  to librdkafka's own ``sasl.*`` keys.
- a PEM trust store (``ssl.truststore.type=PEM``) is ``ssl.ca.location``, its inline
  certificates (``ssl.truststore.certificates``) ``ssl.ca.pem``; a PEM key store is
  ``ssl.key.location`` + ``ssl.certificate.location`` (inline: ``ssl.keystore.key`` /
  ``ssl.keystore.certificate.chain``); a PKCS12 key store is librdkafka's ``ssl.keystore.*``.
  A JKS (Java's default) or PKCS12 trust store and a JKS key store cannot be read: an error
  says which librdkafka key to add (``ssl.ca.location``, ``ssl.certificate.location`` +
  ``ssl.key.location``), which Spark's Java client ignores.
- ``ssl.endpoint.identification.algorithm`` empty (Java's "off") is ``none``.
- Java-only tuning (``ssl.protocol``, ``ssl.enabled.protocols``, ``ssl.cipher.suites`` in Java's
  names, key and trust manager algorithms, ``sasl.login.*`` callbacks...) is left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from s3connect.errors import ConfigError

__all__ = ["librdkafka_props", "producer_props"]

_JAVA_ONLY = frozenset(
    {
        "sasl.jaas.config",
        "sasl.client.callback.handler.class",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "ssl.cipher.suites",
        "ssl.enabled.protocols",
        "ssl.engine.factory.class",
        "ssl.keymanager.algorithm",
        "ssl.keystore.type",
        "ssl.protocol",
        "ssl.provider",
        "ssl.secure.random.implementation",
        "ssl.trustmanager.algorithm",
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.truststore.type",
        "ssl.truststore.certificates",
        "ssl.keystore.key",
        "ssl.keystore.certificate.chain",
        "socket.connection.setup.timeout.max.ms",
    }
)
_JAVA_ONLY_PREFIXES = ("sasl.login.", "sasl.oauthbearer.jwks.", "sasl.oauthbearer.clock.")
_PASSWORD_MODULES = ("PlainLoginModule", "ScramLoginModule")
_OPTION = re.compile(r'(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"')


def librdkafka_props(options: Mapping[str, str]) -> dict[str, str]:
    """``options`` (client properties, ``kafka.`` prefix stripped) as librdkafka's.

    Raises:
        ConfigError: a trust or key store librdkafka cannot read, naming the key and what to add.
    """
    props = {
        k: v
        for k, v in options.items()
        if k not in _JAVA_ONLY and not k.startswith(_JAVA_ONLY_PREFIXES)
    }
    if options.get("ssl.keystore.type", "JKS").strip().upper() != "PKCS12":
        props.pop("ssl.keystore.location", None)
        props.pop("ssl.keystore.password", None)
    props.update(_sasl(options))
    props.update(_trust(options))
    props.update(_identity(options))
    if options.get("ssl.endpoint.identification.algorithm", "https").strip() == "":
        props["ssl.endpoint.identification.algorithm"] = "none"
    return props


# Java producer properties librdkafka names otherwise (the values mean the same), and those it
# has no counterpart for (left out, as the Java client leaves out properties it does not know).
_PRODUCER_RENAMED = {
    "max.request.size": "message.max.bytes",
    "send.buffer.bytes": "socket.send.buffer.bytes",
    "receive.buffer.bytes": "socket.receive.buffer.bytes",
}
_JAVA_DELIVERY_TIMEOUT_MS = "120000"
_PRODUCER_JAVA_ONLY = frozenset(
    {
        "auto.include.jmx.reporter",
        "buffer.memory",  # below: librdkafka counts kilobytes
        "client.dns.lookup",
        "compression.gzip.level",
        "compression.lz4.level",
        "compression.zstd.level",
        "enable.metrics.push",
        "interceptor.classes",
        "max.block.ms",
        "metadata.max.idle.ms",
        "metadata.recovery.strategy",
        "metric.reporters",
        "metrics.num.samples",
        "metrics.recording.level",
        "metrics.sample.window.ms",
        "security.providers",
    }
)


def producer_props(options: Mapping[str, str]) -> dict[str, str]:
    """Java producer properties (``kafka.`` prefix stripped) as librdkafka's: the client
    properties of :func:`librdkafka_props`, producer properties librdkafka names otherwise
    renamed (``max.request.size``, the socket buffers, whose -1 is librdkafka's 0;
    ``buffer.memory`` in kilobytes), Java-only ones (``partitioner.*``, ``max.block.ms``,
    metrics...) left out; ``delivery.timeout.ms`` is the Java client's default (2 minutes)
    unless set.

    Raises:
        ConfigError: a trust or key store librdkafka cannot read.
    """
    props: dict[str, str] = {}
    for key, value in librdkafka_props(options).items():
        if key in _PRODUCER_JAVA_ONLY or key.startswith("partitioner."):
            continue
        if key in _PRODUCER_RENAMED:
            key, value = _PRODUCER_RENAMED[key], "0" if value.strip() == "-1" else value
        props[key] = value
    props.setdefault("delivery.timeout.ms", _JAVA_DELIVERY_TIMEOUT_MS)  # librdkafka's is 300 s
    memory = options.get("buffer.memory", "").strip()
    if memory.isdigit():
        props.setdefault("queue.buffering.max.kbytes", str(max(1, int(memory) // 1024)))
    return props


def _sasl(options: Mapping[str, str]) -> dict[str, str]:
    """``sasl.username`` / ``sasl.password`` from a PLAIN or SCRAM JAAS config."""
    jaas = options.get("sasl.jaas.config")
    if not jaas or not any(module in jaas for module in _PASSWORD_MODULES):
        return {}
    found = {k: re.sub(r"\\(.)", r"\1", v) for k, v in _OPTION.findall(jaas)}
    out = {}
    if "username" in found and "sasl.username" not in options:
        out["sasl.username"] = found["username"]
    if "password" in found and "sasl.password" not in options:
        out["sasl.password"] = found["password"]
    return out


def _trust(options: Mapping[str, str]) -> dict[str, str]:
    if "ssl.ca.location" in options or "ssl.ca.pem" in options:
        return {}
    if "ssl.truststore.certificates" in options:
        return {"ssl.ca.pem": options["ssl.truststore.certificates"]}
    location = options.get("ssl.truststore.location")
    if location is None:
        return {}
    kind = options.get("ssl.truststore.type", "JKS").strip().upper()
    if kind == "PEM":
        return {"ssl.ca.location": location}
    raise ConfigError(
        f"kafka.ssl.truststore.location: a {kind} trust store cannot be read by the Python "
        "Kafka client of the source's topic checks and the dead letter queue (librdkafka); "
        "add kafka.ssl.ca.location=<a PEM file of the CA certificates> (Spark's Java client "
        "ignores it), or use ssl.truststore.type=PEM"
    )


def _identity(options: Mapping[str, str]) -> dict[str, str]:
    if "ssl.certificate.location" in options or "ssl.certificate.pem" in options:
        return {}
    if "ssl.keystore.key" in options:
        out = {"ssl.key.pem": options["ssl.keystore.key"]}
        if "ssl.keystore.certificate.chain" in options:
            out["ssl.certificate.pem"] = options["ssl.keystore.certificate.chain"]
        return out
    location = options.get("ssl.keystore.location")
    if location is None:
        return {}
    kind = options.get("ssl.keystore.type", "JKS").strip().upper()
    if kind == "PKCS12":
        return {}  # librdkafka's ssl.keystore.location/.password are PKCS#12
    if kind == "PEM":
        return {"ssl.key.location": location, "ssl.certificate.location": location}
    raise ConfigError(
        f"kafka.ssl.keystore.location: a {kind} key store cannot be read by the Python Kafka "
        "client of the source's topic checks and the dead letter queue (librdkafka); add "
        "kafka.ssl.certificate.location and kafka.ssl.key.location (PEM files; Spark's Java "
        "client ignores them), or use ssl.keystore.type=PKCS12 or PEM"
    )
