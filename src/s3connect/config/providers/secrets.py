"""A Databricks secret scope: ``${secrets:<scope>/<key>}`` (or ``${secrets:<scope>:<key>}``).

On Databricks the caller injects the lookup (``dbutils.secrets.get``). Without one (local runs)
a secret is read from, in this order:

1. the environment variable ``S3CONNECT_SECRET_<SCOPE>_<KEY>``: scope and key upper-cased,
   every character other than ``A-Z``, ``0-9`` replaced by ``_`` (``aws/access-key`` ->
   ``S3CONNECT_SECRET_AWS_ACCESS_KEY``), used when set, even to the empty string;
2. the file ``<dir>/<scope>/<key>``, ``<dir>`` being ``$S3CONNECT_SECRETS_DIR`` when set and not
   empty, else ``~/.s3connect/secrets``: its UTF-8 content with one trailing line break (``\\n``
   or ``\\r\\n``) removed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import ClassVar, Self

from s3connect.config.providers.base import ProviderContext, SecretLookup, Unresolved

__all__ = [
    "DEFAULT_SECRETS_DIR",
    "SECRETS_DIR_ENV",
    "DatabricksSecretsConfigProvider",
    "local_secret_file",
    "local_secret_variable",
]

SECRETS_DIR_ENV = "S3CONNECT_SECRETS_DIR"
"""Environment variable naming the folder of local secret files."""

DEFAULT_SECRETS_DIR = "~/.s3connect/secrets"
"""The folder of local secret files when ``S3CONNECT_SECRETS_DIR`` is not set."""

_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def local_secret_variable(scope: str, key: str) -> str:
    """The environment variable holding a secret locally: ``S3CONNECT_SECRET_<SCOPE>_<KEY>``."""
    return "S3CONNECT_SECRET_" + "_".join(_NOT_ALNUM.sub("_", s).upper() for s in (scope, key))


def local_secret_file(scope: str, key: str, environ: Mapping[str, str]) -> str:
    """The file holding a secret locally: ``<S3CONNECT_SECRETS_DIR or
    ~/.s3connect/secrets>/<scope>/<key>`` (``~`` is ``environ``'s ``HOME`` when set)."""
    folder = environ.get(SECRETS_DIR_ENV) or DEFAULT_SECRETS_DIR
    if folder.startswith("~") and environ.get("HOME"):
        folder = environ["HOME"] + folder[1:]
    return os.path.join(os.path.expanduser(folder), scope, key)


class DatabricksSecretsConfigProvider:
    """Secrets of Databricks secret scopes, through the injected lookup, else the local
    environment variable or file (module docstring). Takes no parameters."""

    CLASS_NAME: ClassVar[str] = "io.s3connect.DatabricksSecretsConfigProvider"
    PARAMS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, environ: Mapping[str, str], lookup: SecretLookup | None) -> None:
        self._environ = environ
        self._lookup = lookup

    @classmethod
    def configure(cls, params: Mapping[str, str], context: ProviderContext) -> Self:
        """A provider using the context's secret lookup, else the local places."""
        return cls(context.environ, context.secret_lookup)

    def get(self, path: str, key: str) -> str:
        """The secret ``<scope>/<key>`` (``path`` empty) or ``key`` in scope ``path``."""
        scope, _, name = (path, "", key) if path else key.partition("/")
        if not _valid(scope) or not _valid(name):
            raise Unresolved("must name a scope and a key: ${<provider>:<scope>/<key>}")
        if self._lookup is not None:
            return _looked_up(self._lookup, scope, name)
        return _local(self._environ, scope, name)


def _looked_up(lookup: SecretLookup, scope: str, key: str) -> str:
    try:
        value = lookup(scope, key)
    except Exception as exc:  # dbutils raises its own types; the type's name is enough
        raise Unresolved(
            f"secret {key} of scope {scope} could not be read ({type(exc).__name__})"
        ) from None
    if value is None:
        raise Unresolved(f"secret {key} of scope {scope} does not exist")
    if not isinstance(value, str):
        raise Unresolved(
            f"secret {key} of scope {scope}: the lookup returned a {type(value).__name__}, "
            "not a string"
        )
    return value


def _local(environ: Mapping[str, str], scope: str, key: str) -> str:
    variable = local_secret_variable(scope, key)
    if variable in environ:
        return environ[variable]
    file = local_secret_file(scope, key, environ)
    try:
        with open(file, "rb") as f:
            text = f.read().decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise Unresolved(
            f"secret {key} of scope {scope} not found: no secret lookup given (not on "
            f"Databricks), {variable} is not set and {file} does not exist"
        ) from None
    except OSError as exc:
        raise Unresolved(f"cannot read {file}: {exc.strerror or type(exc).__name__}") from None
    except UnicodeDecodeError:
        raise Unresolved(f"cannot read {file}: not UTF-8 text") from None
    if text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    return text


def _valid(name: str) -> bool:
    """A scope or key name that can be a folder or file name: not empty, no ``/``, not ``.``
    or ``..`` (Databricks allows neither ``/`` nor an empty name)."""
    return bool(name) and "/" not in name and name not in (".", "..") and "\0" not in name
