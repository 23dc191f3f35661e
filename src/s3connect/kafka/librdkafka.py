"""Java Kafka client properties as librdkafka's, for the Python clients (confluent-kafka) of
the source's topic checks and the sink's dead letter queue.

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

__all__ = ["librdkafka_props"]

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
