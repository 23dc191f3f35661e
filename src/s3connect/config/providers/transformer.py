"""Kafka's ``ConfigTransformer``: every ``${provider:[path:]key}`` in the config's values replaced
by its provider's value, the providers set up from the worker-style ``config.providers*`` keys."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from s3connect.config.providers.base import (
    ConfigProvider,
    InvalidParam,
    ProviderContext,
    SecretLookup,
    Unresolved,
)
from s3connect.config.providers.directory import DirectoryConfigProvider
from s3connect.config.providers.env import EnvVarConfigProvider
from s3connect.config.providers.file import FileConfigProvider
from s3connect.config.providers.secrets import DatabricksSecretsConfigProvider
from s3connect.errors import ConfigError

__all__ = [
    "CONFIG_PROVIDERS",
    "DEFAULT_PROVIDERS",
    "PROVIDER_CLASSES",
    "VARIABLE_PATTERN",
    "Resolved",
    "is_provider_key",
    "resolve_config",
]

VARIABLE_PATTERN = re.compile(r"\$\{([^}]*?):(([^}]*?):)?([^}]*?)\}")
"""Kafka's ``ConfigTransformer.DEFAULT_PATTERN``: groups 1 provider, 3 path (optional), 4 key."""

CONFIG_PROVIDERS = "config.providers"
"""The key listing the provider names; ``config.providers.<name>.*`` configure each one."""

PROVIDER_CLASSES: Mapping[str, type[ConfigProvider]] = MappingProxyType(
    {
        cls.CLASS_NAME: cls
        for cls in (
            EnvVarConfigProvider,
            FileConfigProvider,
            DirectoryConfigProvider,
            DatabricksSecretsConfigProvider,
        )
    }
)
"""The provider classes by the name ``config.providers.<name>.class`` gives them."""

DEFAULT_PROVIDERS: Mapping[str, str] = MappingProxyType(
    {
        "env": EnvVarConfigProvider.CLASS_NAME,
        "file": FileConfigProvider.CLASS_NAME,
        "directory": DirectoryConfigProvider.CLASS_NAME,
        "secrets": DatabricksSecretsConfigProvider.CLASS_NAME,
    }
)
"""The providers without ``config.providers``, and the class of a listed built-in name that has
no ``.class`` key."""


def _aliases() -> dict[str, type[ConfigProvider]]:
    """Class names as Kafka Connect's plugin aliases also accept them: the simple name
    (``FileConfigProvider``) and the simple name without ``ConfigProvider`` (``File``)."""
    aliases: dict[str, type[ConfigProvider]] = dict(PROVIDER_CLASSES)
    for name, cls in PROVIDER_CLASSES.items():
        simple = name.rsplit(".", 1)[-1]
        aliases[simple] = cls
        aliases[simple.removesuffix("ConfigProvider")] = cls
    return aliases


_ALIASES = _aliases()


def is_provider_key(key: str) -> bool:
    """Whether ``key`` configures the providers (``config.providers`` or below it)."""
    return key == CONFIG_PROVIDERS or key.startswith(CONFIG_PROVIDERS + ".")


@dataclass(frozen=True)
class Resolved:
    """A config with every provider reference replaced.

    Attributes:
        config: The keys of the raw config, in order, without the ``config.providers*`` keys.
        from_providers: The keys whose values hold a provider's value (secrets, as a rule: mask
            them as such).
    """

    config: Mapping[str, str] = field(repr=False)
    from_providers: frozenset[str] = frozenset()

    def __repr__(self) -> str:  # never the values
        return f"Resolved(keys={list(self.config)}, from_providers={sorted(self.from_providers)})"


def resolve_config(
    raw: Mapping[str, str],
    *,
    secret_lookup: SecretLookup | None = None,
    environ: Mapping[str, str] | None = None,
) -> Resolved:
    """Replace every ``${provider:[path:]key}`` in ``raw``'s values, as Kafka's
    ``ConfigTransformer`` does, except that a reference without a value fails.

    Args:
        raw: The connector config, every value a string (``config.parsing.normalise``).
        secret_lookup: ``(scope, key) -> value`` for ``${secrets:...}`` (``dbutils.secrets.get``
            on Databricks); ``None`` reads the local places instead.
        environ: Environment for ``${env:...}`` and the local secrets (default ``os.environ``).

    Returns:
        The resolved config and the keys whose values came from a provider.

    Raises:
        ConfigError: naming every failing key with its reference and provider, and every
            invalid ``config.providers*`` key; never a resolved value.
    """
    context = ProviderContext(os.environ if environ is None else environ, secret_lookup)
    problems: list[str] = []
    providers = _Providers(raw, context, problems)
    config: dict[str, str] = {}
    from_providers: set[str] = set()
    for key, value in raw.items():
        if is_provider_key(key):
            continue
        config[key], replaced = providers.resolve(key, value)
        if replaced:
            from_providers.add(key)
    if problems:
        count = len(problems)
        raise ConfigError(
            f"config values could not be resolved by config providers ({count} "
            f"problem{'s' if count > 1 else ''}):\n  - " + "\n  - ".join(problems)
        )
    return Resolved(MappingProxyType(config), frozenset(from_providers))


class _Providers:
    """The configured providers and their answers, each reference asked once."""

    def __init__(
        self, raw: Mapping[str, str], context: ProviderContext, problems: list[str]
    ) -> None:
        self._problems = problems
        self._answers: dict[tuple[str, str, str], str | Unresolved] = {}
        listed = raw.get(CONFIG_PROVIDERS)
        self._names = list(DEFAULT_PROVIDERS) if listed is None else _names(listed)
        self._listed = listed is not None
        self._providers: dict[str, ConfigProvider] = {}
        used = {CONFIG_PROVIDERS}
        for name in self._names:
            used |= self._set_up(name, raw, context)
        for key in sorted(k for k in raw if is_provider_key(k) and k not in used):
            problems.append(f"{key} is unknown: names no provider; {self._providers_are()}")

    def _set_up(self, name: str, raw: Mapping[str, str], context: ProviderContext) -> set[str]:
        """Configure provider ``name``; return the keys it used."""
        prefix = f"{CONFIG_PROVIDERS}.{name}."
        class_key, param_prefix = prefix + "class", prefix + "param."
        params = {
            k.removeprefix(param_prefix): v
            for k, v in raw.items()
            if k.startswith(param_prefix) and len(k) > len(param_prefix)
        }
        used = {class_key} | {param_prefix + p for p in params}
        cls = self._provider_class(name, class_key, raw.get(class_key))
        if cls is None:
            return used
        unknown = sorted(set(params) - set(cls.PARAMS))
        for param in unknown:
            takes = ", ".join(cls.PARAMS) or "no parameters"
            short = cls.CLASS_NAME.rsplit(".", 1)[-1]
            self._problems.append(f"{param_prefix}{param} is unknown: {short} takes {takes}")
        if not unknown:
            try:
                self._providers[name] = cls.configure(params, context)
            except InvalidParam as exc:
                self._problems.append(f"{param_prefix}{exc}")
        return used

    def _provider_class(
        self, name: str, class_key: str, value: str | None
    ) -> type[ConfigProvider] | None:
        if value is None:
            if name in DEFAULT_PROVIDERS:
                return PROVIDER_CLASSES[DEFAULT_PROVIDERS[name]]
            self._problems.append(
                f"{class_key} is missing: required for a provider other than "
                + ", ".join(DEFAULT_PROVIDERS)
            )
            return None
        cls = _ALIASES.get(value.strip())
        if cls is None:
            self._problems.append(
                f"{class_key}={value} is invalid: must be one of "
                + ", ".join(PROVIDER_CLASSES)
                + " (or the name without its package, or without ConfigProvider)"
            )
        return cls

    def _providers_are(self) -> str:
        names = ", ".join(self._names) or "none"
        if self._listed:
            return f"{CONFIG_PROVIDERS} lists {names}"
        return f"the providers are {names} ({CONFIG_PROVIDERS} is not set)"

    def resolve(self, key: str, value: str) -> tuple[str, bool]:
        """``value`` with its references replaced, and whether it had any; each failing
        reference is added to the problems."""
        found = False

        def replace(match: re.Match[str]) -> str:
            nonlocal found
            found = True
            provider, path, variable = match.group(1), match.group(3) or "", match.group(4)
            try:
                return self._answer(provider, path, variable)
            except Unresolved as exc:
                self._problems.append(f"{key}: {match.group(0)} (provider {provider}): {exc}")
                return match.group(0)

        if "${" not in value:
            return value, False
        return VARIABLE_PATTERN.sub(replace, value), found

    def _answer(self, name: str, path: str, key: str) -> str:
        """The provider's value (memoised, errors included)."""
        ref = (name, path, key)
        if ref not in self._answers:
            try:
                self._answers[ref] = self._ask(name, path, key)
            except Unresolved as exc:
                self._answers[ref] = exc
        answer = self._answers[ref]
        if isinstance(answer, Unresolved):
            raise answer
        return answer

    def _ask(self, name: str, path: str, key: str) -> str:
        provider = self._providers.get(name)
        if provider is not None:
            return provider.get(path, key)
        if name in self._names:
            raise Unresolved(f"misconfigured (see {CONFIG_PROVIDERS}.{name}.*)")
        raise Unresolved(f"unknown provider; {self._providers_are()}")


def _names(listed: str) -> list[str]:
    """The names ``config.providers`` lists: comma-separated, blanks and repeats dropped."""
    names: list[str] = []
    for name in (n.strip() for n in listed.split(",")):
        if name and name not in names:
            names.append(name)
    return names
