"""Kafka's config providers: ``${provider:[path:]key}`` in config values, resolved before the
config is validated, so a Kafka Connect config pasted unchanged keeps its placeholders::

    resolved = resolve_config(raw, secret_lookup=dbutils.secrets.get)  # locally: no lookup
    resolved.config["aws.access.key.id"]   # "${secrets:aws/access-key}" replaced

**Syntax** (Kafka's ``ConfigTransformer``): a reference is what Kafka's pattern
``\\$\\{([^}]*?):(([^}]*?):)?([^}]*?)\\}`` matches: ``${provider:key}`` or
``${provider:path:key}`` (the path ends at the second ``:``; the key may hold more). A value may
hold several references and text around them; a provider's value is not resolved again. A
``${...}`` the pattern does not match (``${foo}``, no ``:``) stays as it is. There is no escape.

**Providers** (``name``: reference, parameters):

- ``env`` (Kafka's ``EnvVarConfigProvider``): ``${env:VARIABLE}``, no path.
  ``allowlist.pattern``: a regular expression (Python's syntax; Java's for common patterns) the
  whole variable name must match; default ``.*``.
- ``file`` (``FileConfigProvider``): ``${file:/path/to/file.properties:key}``, a key of a
  properties file read as Java 17's ``Properties.load`` reads it (UTF-8). ``allowed.paths``.
- ``directory`` (``DirectoryConfigProvider``): ``${directory:/path/to/dir:filename}``, the whole
  content of a regular file directly in the directory (UTF-8, nothing stripped, as Kafka).
  ``allowed.paths``.
- ``secrets`` (ours, ``io.s3connect.DatabricksSecretsConfigProvider``):
  ``${secrets:<scope>/<key>}`` or ``${secrets:<scope>:<key>}``, a secret of a Databricks secret
  scope, read by the lookup the caller passes (``dbutils.secrets.get``). Without one (local
  runs): the environment variable ``S3CONNECT_SECRET_<SCOPE>_<KEY>`` (scope and key upper-cased,
  every character but ``A-Z0-9`` as ``_``) when set, else the file
  ``<S3CONNECT_SECRETS_DIR, or ~/.s3connect/secrets>/<scope>/<key>`` with one trailing line
  break removed. No parameters.

``allowed.paths``: comma-separated absolute paths, each existing; a file or directory is
readable when its lexically normalised path lies under one of them (Kafka's rule) and so does its
real path (symbolic links followed; our addition). Without it every path is readable.

**Worker-style keys** (as in a Kafka Connect worker config), removed from the resolved config:
``config.providers=a,b`` names the providers; ``config.providers.<name>.class`` gives a class:
``org.apache.kafka.common.config.provider.EnvVarConfigProvider``, ``...FileConfigProvider``,
``...DirectoryConfigProvider`` or ``io.s3connect.DatabricksSecretsConfigProvider``, or, as
Connect's plugin aliases, the name without its package or also without ``ConfigProvider``
(``File``); ``config.providers.<name>.param.<param>=<value>`` sets a parameter. Without
``config.providers`` the four built-ins ``env``, ``file``, ``directory`` and ``secrets`` are
available (their ``param`` keys still apply); with it only the listed ones, a listed built-in
name needing no ``class`` key.

**Failures**: one :class:`~s3connect.errors.ConfigError` lists every problem: each reference
that has no value (unknown provider, variable not set or not allowed, file or key missing, path
not allowed, secret not found) with its key, reference and provider, and every invalid or unknown
``config.providers*`` key. It never shows a resolved value. Kafka leaves such a reference
unreplaced (the placeholder would become the credential) and ignores unknown keys and
parameters.
"""

from s3connect.config.providers.base import SecretLookup
from s3connect.config.providers.directory import DirectoryConfigProvider
from s3connect.config.providers.env import EnvVarConfigProvider
from s3connect.config.providers.file import FileConfigProvider
from s3connect.config.providers.secrets import (
    DatabricksSecretsConfigProvider,
    local_secret_file,
    local_secret_variable,
)
from s3connect.config.providers.transformer import (
    CONFIG_PROVIDERS,
    DEFAULT_PROVIDERS,
    PROVIDER_CLASSES,
    Resolved,
    is_provider_key,
    resolve_config,
)

__all__ = [
    "CONFIG_PROVIDERS",
    "DEFAULT_PROVIDERS",
    "PROVIDER_CLASSES",
    "DatabricksSecretsConfigProvider",
    "DirectoryConfigProvider",
    "EnvVarConfigProvider",
    "FileConfigProvider",
    "Resolved",
    "SecretLookup",
    "is_provider_key",
    "local_secret_file",
    "local_secret_variable",
    "resolve_config",
]
