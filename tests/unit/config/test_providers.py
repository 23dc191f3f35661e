"""Unit tests for s3connect.config.providers: Kafka's ${provider:[path:]key} references, the
env, file, directory and Databricks secrets providers, the worker-style config.providers keys,
and failures that name key and provider but never a value."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from s3connect.config.providers import (
    Resolved,
    local_secret_file,
    local_secret_variable,
    resolve_config,
)
from s3connect.config.providers.file import load_properties
from s3connect.errors import ConfigError

SECRET = "S3CR3T-value"
ENV_CLASS = "org.apache.kafka.common.config.provider.EnvVarConfigProvider"
FILE_CLASS = "org.apache.kafka.common.config.provider.FileConfigProvider"


def failure(raw: Mapping[str, str], **kwargs: object) -> str:
    """The ConfigError message resolve_config raises for ``raw``."""
    with pytest.raises(ConfigError) as info:
        resolve_config(raw, **kwargs)  # type: ignore[arg-type]
    return str(info.value)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


class Scope:
    """A stand-in Databricks secret scope: ``lookup`` is ``dbutils.secrets.get``."""

    def __init__(self, secrets: dict[tuple[str, str], str]) -> None:
        self.secrets = secrets
        self.calls: list[tuple[str, str]] = []

    def lookup(self, scope: str, key: str) -> str:
        self.calls.append((scope, key))
        if (scope, key) not in self.secrets:
            raise KeyError(f"Secret does not exist with scope: {scope} and key: {key}")
        return self.secrets[(scope, key)]


# --------------------------------------------------------------------------- syntax


def test_values_without_references_are_returned_unchanged() -> None:
    raw = {"topics": "orders", "flush.size": "3", "path.format": "'year'=YYYY"}
    resolved = resolve_config(raw, environ={})
    assert dict(resolved.config) == raw
    assert resolved.from_providers == frozenset()


def test_several_references_and_text_around_them() -> None:
    env = {"USER": "alice", "PASS": SECRET}
    raw = {"jaas": 'user="${env:USER}" password="${env:PASS}"; again ${env:USER}!'}
    resolved = resolve_config(raw, environ=env)
    assert resolved.config["jaas"] == f'user="alice" password="{SECRET}"; again alice!'
    assert resolved.from_providers == {"jaas"}


def test_what_kafkas_pattern_does_not_match_stays_as_it_is() -> None:
    raw = {"a": "${foo}", "b": "$env:X", "c": "${}", "d": "{env:X}", "e": "plain"}
    resolved = resolve_config(raw, environ={"X": "x"})
    assert dict(resolved.config) == raw
    assert resolved.from_providers == frozenset()


def test_a_providers_value_is_not_resolved_again() -> None:
    # Kafka's ConfigTransformerTest.testSingleLevelOfIndirection
    resolved = resolve_config({"k": "${env:A}"}, environ={"A": "${env:B}", "B": "b"})
    assert resolved.config["k"] == "${env:B}"


def test_the_path_ends_at_the_second_colon_and_the_key_may_hold_more() -> None:
    scope = Scope({("scope", "key:with:colons"): "v"})
    resolved = resolve_config({"k": "${secrets:scope:key:with:colons}"}, secret_lookup=scope.lookup)
    assert resolved.config["k"] == "v"
    assert scope.calls == [("scope", "key:with:colons")]


def test_each_reference_is_asked_once() -> None:
    scope = Scope({("s", "k"): "v"})
    raw = {"a": "${secrets:s/k}", "b": "${secrets:s/k}-${secrets:s/k}", "c": "${secrets:s:k}"}
    resolved = resolve_config(raw, secret_lookup=scope.lookup)
    assert dict(resolved.config) == {"a": "v", "b": "v-v", "c": "v"}
    assert scope.calls == [("s", "k"), ("s", "k")]  # "s/k" and path "s" + key "k"


def test_resolved_repr_shows_keys_never_values() -> None:
    resolved = resolve_config({"aws.secret.access.key": "${env:S}"}, environ={"S": SECRET})
    assert isinstance(resolved, Resolved)
    assert SECRET not in repr(resolved)
    assert "aws.secret.access.key" in repr(resolved)


# --------------------------------------------------------------------------- env


def test_env_reads_the_process_environment_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("S3CONNECT_TEST_KEY", SECRET)
    resolved = resolve_config({"aws.access.key.id": "${env:S3CONNECT_TEST_KEY}"})
    assert resolved.config["aws.access.key.id"] == SECRET
    assert resolved.from_providers == {"aws.access.key.id"}


def test_env_empty_variable_is_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("S3CONNECT_TEST_EMPTY", "")
    assert resolve_config({"k": "${env:S3CONNECT_TEST_EMPTY}"}).config["k"] == ""


def test_env_missing_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("S3CONNECT_TEST_NOPE", raising=False)
    msg = failure({"kafka.api.key": "${env:S3CONNECT_TEST_NOPE}"})
    assert msg.startswith("config values could not be resolved by config providers (1 problem):")
    assert (
        "kafka.api.key: ${env:S3CONNECT_TEST_NOPE} (provider env): "
        "environment variable S3CONNECT_TEST_NOPE is not set"
    ) in msg


def test_env_allowlist_pattern() -> None:
    env = {"secret_var2": "value2", "test_var1": SECRET}
    raw = {
        "config.providers.env.param.allowlist.pattern": "secret_.*",
        "a": "${env:secret_var2}",
    }
    assert resolve_config(raw, environ=env).config["a"] == "value2"
    msg = failure({**raw, "b": "${env:test_var1}"}, environ=env)
    assert (
        "b: ${env:test_var1} (provider env): environment variable test_var1 does not match "
        "allowlist.pattern secret_.*"
    ) in msg
    assert SECRET not in msg and "value2" not in msg


def test_env_allowlist_pattern_must_match_the_whole_name() -> None:
    raw = {"config.providers.env.param.allowlist.pattern": "secret", "a": "${env:secret_x}"}
    assert "does not match allowlist.pattern secret" in failure(raw, environ={"secret_x": "v"})


def test_env_invalid_allowlist_pattern() -> None:
    raw = {"config.providers.env.param.allowlist.pattern": "(", "a": "${env:X}"}
    msg = failure(raw, environ={"X": SECRET})
    assert "config.providers.env.param.allowlist.pattern=( is invalid: not a regular" in msg
    assert "a: ${env:X} (provider env): misconfigured (see config.providers.env.*)" in msg
    assert SECRET not in msg


def test_env_takes_no_path() -> None:
    msg = failure({"a": "${env:some/path:X}"}, environ={"X": SECRET})
    assert "a: ${env:some/path:X} (provider env): takes no path, got some/path" in msg
    assert SECRET not in msg


# --------------------------------------------------------------------------- file

PROPERTIES = (
    "# a comment\n"
    "! another comment\\\n"
    "not.continued=yes\n"
    "plain=value\n"
    "colon: value with spaces  \n"
    "   blank   separated value\n"
    "empty=\n"
    "key\\ with\\=escapes = v\n"
    "long = first, \\\n"
    "       second, \\\n"
    "       third\n"
    "escapes=a\\tb\\nc\\u0041\\\\d\\q\n"
    "even.backslashes=ends\\\\\n"
    "next=after\n"
    "password=" + SECRET + "\n"
    "dup=first\n"
    "dup=second\n"
    "utf8=caf\u00e9\n"
    "emoji=\\ud83d\\ude00\n"
    "last=no newline at the end"
)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("plain", "value"),
        ("colon", "value with spaces  "),
        ("blank", "separated value"),
        ("empty", ""),
        ("key with=escapes", "v"),
        ("long", "first, second, third"),
        ("escapes", "a\tb\ncA\\dq"),
        ("even.backslashes", "ends\\"),
        ("next", "after"),
        ("not.continued", "yes"),
        ("dup", "second"),
        ("utf8", "caf\u00e9"),
        ("emoji", "\U0001f600"),
        ("last", "no newline at the end"),
    ],
)
def test_file_reads_a_key_as_java_properties_load(tmp_path: Path, key: str, expected: str) -> None:
    path = write(tmp_path / "creds.properties", PROPERTIES)
    resolved = resolve_config({"k": f"${{file:{path}:{key}}}"}, environ={})
    assert resolved.config["k"] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\", {"": ""}),  # the file ends right after a backslash: Java keeps the empty line
        ("\\\n", {"": ""}),
        ("\\\r\n", {}),
        ("\\\n   ", {}),
        ("\\\n#comment=1\nx=1", {"x": "1"}),  # a comment, as nothing came before it
        ("a=1\\\n#not a comment", {"a": "1#not a comment"}),
        ("a=1\\\n\nb=2", {"a": "1", "b": "2"}),
        ("key", {"key": ""}),
        ("  = : x", {"": ": x"}),
    ],
)
def test_properties_corner_cases_as_java_17(text: str, expected: dict[str, str]) -> None:
    # checked against java.util.Properties.load on OpenJDK 17
    assert load_properties(text) == expected


def test_file_line_breaks_crlf_and_cr(tmp_path: Path) -> None:
    path = write(tmp_path / "p.properties", "a=1\r\nb=2\\\r\n  3\rc=4")
    raw = {k: f"${{file:{path}:{k}}}" for k in ("a", "b", "c")}
    assert dict(resolve_config(raw, environ={}).config) == {"a": "1", "b": "23", "c": "4"}


def test_file_missing_key_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path / "p.properties", f"password={SECRET}\n")
    raw = {
        "a": f"${{file:{path}:username}}",
        "b": f"${{file:{tmp_path}/nope.properties:password}}",
        "c": f"${{file:{tmp_path}:password}}",
        "d": "${file:password}",
    }
    msg = failure(raw, environ={})
    assert "(4 problems)" in msg
    assert (
        f"a: ${{file:{path}:username}} (provider file): properties file {path} has no key username"
    ) in msg
    assert (
        f"b: ${{file:{tmp_path}/nope.properties:password}} (provider file): cannot read "
        f"{tmp_path}/nope.properties: No such file or directory"
    ) in msg
    assert f"c: ${{file:{tmp_path}:password}} (provider file): cannot read {tmp_path}: " in msg
    assert "d: ${file:password} (provider file): needs a file: ${<provider>:<path>:<key>}" in msg
    assert SECRET not in msg


def test_file_malformed_unicode_escape_names_the_line_not_the_text(tmp_path: Path) -> None:
    path = write(tmp_path / "p.properties", f"ok=1\npassword={SECRET}\\u12\n")
    msg = failure({"a": f"${{file:{path}:ok}}"}, environ={})
    assert (
        f"a: ${{file:{path}:ok}} (provider file): cannot read {path}: malformed "
        "\\uxxxx escape (line 2)"
    ) in msg
    assert SECRET not in msg


def test_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "p.properties"
    path.write_bytes(b"a=caf\xe9\n")
    assert "not UTF-8 text" in failure({"a": f"${{file:{path}:a}}"}, environ={})


def test_file_allowed_paths(tmp_path: Path) -> None:
    allowed = write(tmp_path / "dir" / "p.properties", "a=1\n")
    sibling = write(tmp_path / "sibling" / "p.properties", f"a={SECRET}\n")
    params = {"config.providers.file.param.allowed.paths": str(tmp_path / "dir")}
    assert resolve_config({**params, "k": f"${{file:{allowed}:a}}"}, environ={}).config["k"] == "1"
    traversal = tmp_path / "dir" / ".." / "sibling" / "p.properties"
    raw = {**params, "k": f"${{file:{sibling}:a}}", "t": f"${{file:{traversal}:a}}"}
    msg = failure(raw, environ={})
    assert f"k: ${{file:{sibling}:a}} (provider file): path {sibling} is outside allowed" in msg
    assert f"t: ${{file:{traversal}:a}} (provider file): path {traversal} is outside allowed" in msg
    assert SECRET not in msg


def test_file_allowed_paths_several_entries_and_a_file(tmp_path: Path) -> None:
    one = write(tmp_path / "one" / "p.properties", "a=1\n")
    two = write(tmp_path / "two" / "p.properties", "a=2\n")
    other = write(tmp_path / "one" / "q.properties", "a=3\n")
    raw = {
        "config.providers.file.param.allowed.paths": f"{tmp_path / 'one'}, {two}",
        "x": f"${{file:{one}:a}}+${{file:{tmp_path / 'one' / '..' / 'two' / 'p.properties'}:a}}",
    }
    assert resolve_config(raw, environ={}).config["x"] == "1+2"
    only_file = {"config.providers.file.param.allowed.paths": str(two), "x": f"${{file:{other}:a}}"}
    assert "is outside allowed.paths" in failure(only_file, environ={})


def test_file_allowed_paths_follow_symbolic_links(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside" / "p.properties", f"a={SECRET}\n")
    (tmp_path / "dir").mkdir()
    link = tmp_path / "dir" / "link.properties"
    os.symlink(outside, link)
    raw = {
        "config.providers.file.param.allowed.paths": str(tmp_path / "dir"),
        "k": f"${{file:{link}:a}}",
    }
    msg = failure(raw, environ={})
    assert f"path {link} leads outside allowed.paths (a symbolic link)" in msg
    assert SECRET not in msg


@pytest.mark.parametrize(
    ("value", "reason"),
    [("relative/dir", "relative/dir is not absolute"), ("/no/such/dir", "/no/such/dir does not")],
)
def test_file_invalid_allowed_paths(value: str, reason: str) -> None:
    raw = {"config.providers.file.param.allowed.paths": value, "k": "${file:/x:a}"}
    msg = failure(raw, environ={})
    assert f"config.providers.file.param.allowed.paths={value} is invalid: {reason}" in msg
    assert "k: ${file:/x:a} (provider file): misconfigured (see config.providers.file.*)" in msg


# --------------------------------------------------------------------------- directory


def test_directory_reads_a_whole_file(tmp_path: Path) -> None:
    write(tmp_path / "secrets" / "password", SECRET + "\n")
    write(tmp_path / "secrets" / "user", "alice")
    raw = {
        "a": f"${{directory:{tmp_path / 'secrets'}:password}}",
        "b": f"${{directory:{tmp_path / 'secrets'}:user}}",
    }
    resolved = resolve_config(raw, environ={})
    assert dict(resolved.config) == {"a": SECRET + "\n", "b": "alice"}  # Kafka strips nothing
    assert resolved.from_providers == {"a", "b"}


def test_directory_failures(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets"
    write(secrets / "sub" / "nested", SECRET)
    write(tmp_path / "sibling", SECRET)
    raw = {
        "a": f"${{directory:{secrets}:missing}}",
        "b": f"${{directory:{secrets}:sub}}",
        "c": f"${{directory:{secrets}:sub/nested}}",
        "d": f"${{directory:{secrets}:../sibling}}",
        "e": f"${{directory:{tmp_path / 'sibling'}:x}}",
        "f": "${directory:x}",
    }
    msg = failure(raw, environ={})
    assert "(6 problems)" in msg
    for key, file in (("a", "missing"), ("b", "sub"), ("c", "sub/nested"), ("d", "../sibling")):
        assert (
            f"{key}: ${{directory:{secrets}:{file}}} (provider directory): directory "
            f"{secrets} has no file {file}"
        ) in msg
    assert f"(provider directory): {tmp_path / 'sibling'} is not a directory" in msg
    assert "f: ${directory:x} (provider directory): needs a directory" in msg
    assert SECRET not in msg


def test_directory_allowed_paths(tmp_path: Path) -> None:
    write(tmp_path / "allowed" / "k", "v")
    write(tmp_path / "other" / "k", SECRET)
    (tmp_path / "allowed" / "link").symlink_to(tmp_path / "other" / "k")
    params = {"config.providers.directory.param.allowed.paths": str(tmp_path / "allowed")}
    ok = resolve_config({**params, "a": f"${{directory:{tmp_path / 'allowed'}:k}}"}, environ={})
    assert ok.config["a"] == "v"
    raw = {
        **params,
        "b": f"${{directory:{tmp_path / 'other'}:k}}",
        "c": f"${{directory:{tmp_path / 'allowed'}:link}}",
    }
    msg = failure(raw, environ={})
    assert (
        f"b: ${{directory:{tmp_path / 'other'}:k}} (provider directory): path "
        f"{tmp_path / 'other'} is outside allowed.paths"
    ) in msg
    assert f"path {tmp_path / 'allowed' / 'link'} leads outside allowed.paths" in msg
    assert SECRET not in msg


# --------------------------------------------------------------------------- secrets


def test_secrets_through_the_given_lookup() -> None:
    scope = Scope({("aws", "access-key"): SECRET, ("kafka", "api.secret"): "k"})
    raw = {
        "aws.access.key.id": "${secrets:aws/access-key}",
        "kafka.api.secret": "${secrets:kafka:api.secret}",
    }
    resolved = resolve_config(raw, secret_lookup=scope.lookup, environ={})
    assert dict(resolved.config) == {"aws.access.key.id": SECRET, "kafka.api.secret": "k"}
    assert scope.calls == [("aws", "access-key"), ("kafka", "api.secret")]


def test_secrets_lookup_failures_name_scope_key_and_error_type_only() -> None:
    def lookup(scope: str, key: str) -> str:
        if key == "boom":
            raise RuntimeError(f"partial {SECRET}")  # whatever a lookup says is not shown
        if key == "bytes":
            return SECRET.encode()  # type: ignore[return-value]
        raise KeyError(key)

    raw = {
        "a": "${secrets:aws/missing}",
        "b": "${secrets:aws/boom}",
        "c": "${secrets:aws/bytes}",
        "d": "${secrets:no-scope}",
        "e": "${secrets:aws/../x}",
    }
    msg = failure(raw, secret_lookup=lookup, environ={})
    assert "(5 problems)" in msg
    assert (
        "a: ${secrets:aws/missing} (provider secrets): secret missing of scope aws could "
        "not be read (KeyError)"
    ) in msg
    assert (
        "b: ${secrets:aws/boom} (provider secrets): secret boom of scope aws could not be " in msg
    )
    assert "read (RuntimeError)" in msg
    assert (
        "c: ${secrets:aws/bytes} (provider secrets): secret bytes of scope aws: the lookup "
        "returned a bytes, not a string"
    ) in msg
    assert "d: ${secrets:no-scope} (provider secrets): must name a scope and a key" in msg
    assert "e: ${secrets:aws/../x} (provider secrets): must name a scope and a key" in msg
    assert SECRET not in msg


def test_local_secret_names() -> None:
    assert local_secret_variable("aws", "access-key") == "S3CONNECT_SECRET_AWS_ACCESS_KEY"
    assert local_secret_variable("my.scope@x", "k_1") == "S3CONNECT_SECRET_MY_SCOPE_X_K_1"
    env = {"S3CONNECT_SECRETS_DIR": "/s"}
    assert local_secret_file("aws", "access-key", env) == "/s/aws/access-key"
    home = {"HOME": "/home/u"}
    assert local_secret_file("aws", "k", home) == "/home/u/.s3connect/secrets/aws/k"


def test_local_secret_from_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("S3CONNECT_SECRET_AWS_ACCESS_KEY", SECRET)
    resolved = resolve_config({"aws.access.key.id": "${secrets:aws/access-key}"})
    assert resolved.config["aws.access.key.id"] == SECRET


def test_local_secret_from_a_file(tmp_path: Path) -> None:
    write(tmp_path / "aws" / "access-key", SECRET + "\n")
    write(tmp_path / "aws" / "two-lines", "x\n\n")
    write(tmp_path / "aws" / "crlf", "x\r\n")
    env = {"S3CONNECT_SECRETS_DIR": str(tmp_path)}
    raw = {
        "a": "${secrets:aws/access-key}",
        "b": "${secrets:aws/two-lines}",
        "c": "${secrets:aws:crlf}",
    }
    assert dict(resolve_config(raw, environ=env).config) == {"a": SECRET, "b": "x\n", "c": "x"}


def test_local_secret_file_under_home_and_the_variable_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / ".s3connect" / "secrets" / "aws" / "k", "from file")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("S3CONNECT_SECRETS_DIR", raising=False)
    monkeypatch.delenv("S3CONNECT_SECRET_AWS_K", raising=False)
    assert resolve_config({"a": "${secrets:aws/k}"}).config["a"] == "from file"
    monkeypatch.setenv("S3CONNECT_SECRET_AWS_K", "from variable")
    assert resolve_config({"a": "${secrets:aws/k}"}).config["a"] == "from variable"


def test_local_secret_not_found_says_where_it_looked(tmp_path: Path) -> None:
    msg = failure({"a": "${secrets:aws/k}"}, environ={"S3CONNECT_SECRETS_DIR": str(tmp_path)})
    assert (
        "a: ${secrets:aws/k} (provider secrets): secret k of scope aws not found: no secret " in msg
    )
    assert f"S3CONNECT_SECRET_AWS_K is not set and {tmp_path}/aws/k does not exist" in msg


# --------------------------------------------------------------------------- worker-style keys


def test_provider_keys_are_removed_and_configure_named_providers(tmp_path: Path) -> None:
    path = write(tmp_path / "p.properties", "user=alice\n")
    raw = {
        "config.providers": "vars, files",
        "config.providers.vars.class": ENV_CLASS,
        "config.providers.files.class": "FileConfigProvider",
        "config.providers.files.param.allowed.paths": str(tmp_path),
        "a": "${vars:USER}/${files:" + str(path) + ":user}",
    }
    resolved = resolve_config(raw, environ={"USER": "bob"})
    assert dict(resolved.config) == {"a": "bob/alice"}


@pytest.mark.parametrize("cls", [ENV_CLASS, "EnvVarConfigProvider", "EnvVar", f" {ENV_CLASS} "])
def test_provider_class_names_and_aliases(cls: str) -> None:
    raw = {"config.providers": "e", "config.providers.e.class": cls, "a": "${e:X}"}
    assert resolve_config(raw, environ={"X": "x"}).config["a"] == "x"


def test_databricks_secrets_provider_class() -> None:
    raw = {
        "config.providers": "dbx",
        "config.providers.dbx.class": "io.s3connect.DatabricksSecretsConfigProvider",
        "a": "${dbx:s/k}",
    }
    assert resolve_config(raw, secret_lookup=lambda s, k: f"{s}.{k}").config["a"] == "s.k"


def test_listed_builtin_names_need_no_class_and_unlisted_ones_are_gone() -> None:
    raw = {"config.providers": "env", "a": "${env:X}", "b": "${secrets:s/k}"}
    msg = failure(raw, environ={"X": SECRET}, secret_lookup=lambda s, k: SECRET)
    assert "(1 problem)" in msg
    assert (
        "b: ${secrets:s/k} (provider secrets): unknown provider; config.providers lists env" in msg
    )
    assert SECRET not in msg


def test_empty_config_providers_means_no_providers() -> None:
    msg = failure({"config.providers": "", "a": "${env:X}"}, environ={"X": "x"})
    assert "a: ${env:X} (provider env): unknown provider; config.providers lists none" in msg


def test_unknown_provider_without_config_providers() -> None:
    msg = failure({"a": "${vault:secret/db:password}", "b": "${:x}"}, environ={})
    assert (
        "a: ${vault:secret/db:password} (provider vault): unknown provider; the providers " in msg
    )
    assert "are env, file, directory, secrets (config.providers is not set)" in msg
    assert "b: ${:x} (provider ): unknown provider" in msg


def test_invalid_provider_keys_are_all_reported_without_param_values() -> None:
    raw = {
        "config.providers": "custom, bad",
        "config.providers.bad.class": "com.example.VaultConfigProvider",
        "config.providers.env.param.allowlist.pattern": ".*",  # env is not listed
        "config.providers.custom.param.token": SECRET,
        "config.providers.file.class": FILE_CLASS,
        "a": "${custom:x}",
    }
    msg = failure(raw, environ={})
    assert "(5 problems)" in msg
    assert (
        "config.providers.custom.class is missing: required for a provider other than env, file, "
        "directory, secrets"
    ) in msg
    assert (
        "config.providers.bad.class=com.example.VaultConfigProvider is invalid: must be one of "
        "org.apache.kafka.common.config.provider.EnvVarConfigProvider, "
    ) in msg
    assert (
        "config.providers.env.param.allowlist.pattern is unknown: names no provider; "
        "config.providers lists custom, bad"
    ) in msg
    assert "config.providers.file.class is unknown: names no provider; config.providers " in msg
    assert "a: ${custom:x} (provider custom): misconfigured (see config.providers.custom.*)" in msg
    assert SECRET not in msg


def test_unknown_parameter_of_a_provider_is_reported_without_its_value() -> None:
    raw = {
        "config.providers.file.param.allowed.path": SECRET,
        "config.providers.secrets.param.x": "1",
    }
    msg = failure(raw, environ={})
    assert (
        "config.providers.file.param.allowed.path is unknown: FileConfigProvider takes "
        "allowed.paths"
    ) in msg
    assert (
        "config.providers.secrets.param.x is unknown: DatabricksSecretsConfigProvider takes no "
        "parameters"
    ) in msg
    assert SECRET not in msg


def test_default_providers_take_parameters_without_config_providers(tmp_path: Path) -> None:
    raw = {"config.providers.env.param.allowlist.pattern": "OK_.*", "a": "${env:OK_1}"}
    assert dict(resolve_config(raw, environ={"OK_1": "1"}).config) == {"a": "1"}


# --------------------------------------------------------------------------- failures at once


def test_every_failing_key_at_once_and_never_a_value(tmp_path: Path) -> None:
    path = write(tmp_path / "p.properties", f"password={SECRET}\n")
    env = {"USER": "alice-" + SECRET, "PASS": SECRET}
    raw = {
        "fine": "${env:PASS}",
        "partly": "user=${env:USER} password=${env:MISSING}",
        "file": f"${{file:{path}:nope}}",
        "secret": "${secrets:aws/k}",
        "unknown": "${vault:k}",
    }
    msg = failure(raw, environ=env, secret_lookup=Scope({}).lookup)
    assert msg.count("\n  - ") == 4
    for line, (key, provider) in zip(
        msg.splitlines()[1:],
        (("partly", "env"), ("file", "file"), ("secret", "secrets"), ("unknown", "vault")),
        strict=True,
    ):
        assert line.startswith(f"  - {key}: ${{") and f"(provider {provider}): " in line
    assert SECRET not in msg and "alice" not in msg
