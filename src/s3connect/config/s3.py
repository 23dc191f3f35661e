"""S3 keys: where the bucket is and how to reach it, and (the sink's) how objects are written:
server-side encryption, canned ACL, object tagging, the credentials provider, the proxy and
conditional writes.

Validated as Confluent's ``S3SinkConnectorConfig`` and ``AwsAssumeRoleCredentialsProvider`` do.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Literal

from s3connect.config.parsing import bool_text
from s3connect.config.reader import KeyReader, one_of_values
from s3connect.storage.proxy import S3Proxy, parse_proxy, redacted_url, without_password
from s3connect.storage.s3 import AssumeRole

__all__ = [
    "CANNED_ACLS",
    "CREDENTIALS_PROVIDER_CLASSES",
    "SSE_ALGORITHMS",
    "S3Config",
    "S3WriteConfig",
    "read_sse",
]

# S3SinkConnectorConfig's SSEA_CONFIG validator: "" or the SDK's ServerSideEncryption values
# (case-sensitive). S3OutputStream sends aws:kms only with a key id, and never aws:kms:dsse.
SSE_ALGORITHMS = ("AES256", "aws:kms", "aws:kms:dsse")
# CannedAclValidator: the SDK v2 ObjectCannedACL values (case-sensitive), in its order.
CANNED_ACLS = (
    "private",
    "public-read",
    "public-read-write",
    "authenticated-read",
    "aws-exec-read",
    "bucket-owner-read",
    "bucket-owner-full-control",
)
CREDENTIALS_PROVIDER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "default": "com.amazonaws.auth.DefaultAWSCredentialsProviderChain",
        "assume_role": "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider",
    }
)
"""Supported ``s3.credentials.provider.class`` values (short name -> class)."""
_DEFAULT_CHAIN_ALIASES = frozenset(
    {
        "com.amazonaws.auth.DefaultAWSCredentialsProviderChain",
        "software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider",
    }
)
_STS_PREFIX = "s3.credentials.provider."
# AwsAssumeRoleCredentialsProvider's STS_CONFIG_DEF (under s3.credentials.provider.).
_STS_KEYS = ("sts.role.arn", "sts.role.session.name", "sts.role.external.id", "sts.region")
_SESSION_NAME_RE = re.compile(r"^[\w+=,.@-]{2,64}$")
_EXTERNAL_ID_RE = re.compile(r"^[\w+=,.@:/-]{2,1224}$")
_REGION_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_PART_SIZE_MIN = 5 * 1024 * 1024


def _valid_region(region: str) -> bool:
    """Whether ``region`` looks like an AWS region (``us-west-2``)."""
    return bool(_REGION_RE.match(region))


@dataclass(frozen=True, kw_only=True)
class S3Config:
    """The bucket, its endpoint, static credentials and the request retries."""

    bucket_name: str
    region: str = "us-west-2"
    store_url: str | None = None
    path_style_access: bool = True
    access_key_id: str | None = None
    secret_access_key: str | None = field(default=None, repr=False)
    part_size: int = 26_214_400
    part_retries: int = 3
    retry_backoff_ms: int = 200
    credentials_provider: Literal["default", "assume_role"] = "default"
    sts_role_arn: str | None = None
    sts_role_session_name: str | None = None
    sts_role_external_id: str | None = None
    sts_region: str | None = None
    sts_endpoint_url: str | None = None
    """Our key: the STS endpoint for assume-role (AWS's own when unset)."""
    proxy_url: str | None = None
    """``s3.proxy.url``; a password in its user-info is moved to :attr:`proxy_password`."""
    proxy_user: str | None = None
    proxy_password: str | None = field(default=None, repr=False)
    """``s3.proxy.password`` (secret), or the password the URL held."""

    @property
    def proxy(self) -> S3Proxy | None:
        """The parsed proxy (``S3ProxyConfig``), None without ``s3.proxy.url``."""
        if self.proxy_url is None:
            return None
        return parse_proxy(self.proxy_url, self.proxy_user, self.proxy_password)

    def assume_role(self) -> AssumeRole | None:
        """``AwsAssumeRoleCredentialsProvider``'s settings, when it is the credentials provider."""
        if self.credentials_provider != "assume_role":
            return None
        assert self.sts_role_arn is not None and self.sts_role_session_name is not None
        return AssumeRole(
            role_arn=self.sts_role_arn,
            session_name=self.sts_role_session_name,
            external_id=self.sts_role_external_id,
            region=self.sts_region,
            endpoint_url=self.sts_endpoint_url,
        )

    @classmethod
    def read(cls, r: KeyReader) -> S3Config:
        """Read the keys (``s3.part.size`` within Confluent's ``PartRange``)."""
        bucket = r.optional("s3.bucket.name")
        if bucket is None:
            r.missing("s3.bucket.name", "the S3 bucket name")
        region = r.string("s3.region", "us-west-2").lower()
        if not _valid_region(region):
            r.invalid(
                "s3.region", r.raw_text("s3.region"), "must be an AWS region such as us-west-2"
            )
        url = r.optional("store.url")
        if url is not None and "://" not in url and re.match(r"^[\w.-]+(:\d+)?(/\S*)?$", url):
            url = "https://" + url  # S3Storage: a URL without a scheme is https
        if url is not None and not re.match(r"^(https?|file)://[^\s]+$", url):
            r.invalid("store.url", url, "must be an http://, https:// or file:// URL")
        provider = _read_provider(r)
        sts = _read_assume_role(r, provider == "assume_role")
        proxy_url, proxy_user, proxy_password = _read_proxy(r)
        return S3Config(
            bucket_name=bucket or "",
            region=region,
            store_url=url,
            path_style_access=r.boolean("s3.path.style.access.enabled", True),
            access_key_id=r.optional("aws.access.key.id"),
            secret_access_key=r.optional("aws.secret.access.key"),
            part_size=_read_part_size(r),
            part_retries=r.ranged("s3.part.retries", 3, 0),
            retry_backoff_ms=r.ranged("s3.retry.backoff.ms", 200, 0, kind="LONG"),
            credentials_provider=provider,
            sts_role_arn=sts["sts.role.arn"],
            sts_role_session_name=sts["sts.role.session.name"],
            sts_role_external_id=sts["sts.role.external.id"],
            sts_region=sts["sts.region"],
            sts_endpoint_url=sts["sts.endpoint.url"],
            proxy_url=proxy_url,
            proxy_user=proxy_user,
            proxy_password=proxy_password,
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names (optional ones only when set)."""
        return {
            **self._describe_location(),
            **self._describe_access(),
            **self._describe_transfer(),
            "s3.credentials.provider.class": CREDENTIALS_PROVIDER_CLASSES[
                self.credentials_provider
            ],
        }

    def _describe_access(self) -> dict[str, str]:
        d = {}
        for name in _STS_KEYS:
            value = getattr(self, name.replace(".", "_"))
            if value is not None:
                d[_STS_PREFIX + name] = value
        if self.sts_endpoint_url is not None:
            d["sts.endpoint.url"] = self.sts_endpoint_url
        proxy_keys = ("s3.proxy.url", "s3.proxy.user", "s3.proxy.password")
        for name, value in zip(
            proxy_keys, (self.proxy_url, self.proxy_user, self.proxy_password), strict=True
        ):
            if value is not None:
                d[name] = value
        return d

    def _describe_location(self) -> dict[str, str]:
        d = {"s3.bucket.name": self.bucket_name, "s3.region": self.region}
        if self.store_url is not None:
            d["store.url"] = self.store_url
        d["s3.path.style.access.enabled"] = bool_text(self.path_style_access)
        if self.access_key_id is not None:
            d["aws.access.key.id"] = self.access_key_id
        if self.secret_access_key is not None:
            d["aws.secret.access.key"] = self.secret_access_key
        return d

    def _describe_transfer(self) -> dict[str, str]:
        return {
            "s3.part.size": str(self.part_size),
            "s3.part.retries": str(self.part_retries),
            "s3.retry.backoff.ms": str(self.retry_backoff_ms),
        }


@dataclass(frozen=True, kw_only=True)
class S3WriteConfig(S3Config):
    """The sink's S3 keys: :class:`S3Config`'s plus how objects are written and who writes them."""

    ssea_name: str = ""
    """``""`` (none), ``AES256`` (SSE-S3, or SSE-C with a customer key) or ``aws:kms``."""
    sse_kms_key_id: str = ""
    sse_customer_key: str | None = field(default=None, repr=False)
    """Base64 of a 256-bit key (secret); used only with ``s3.ssea.name=AES256``."""
    acl_canned: str | None = None
    object_tagging: bool = False
    object_tagging_extra: tuple[tuple[str, str], ...] = ()
    """``s3.object.tagging.key.value.pairs``: extra tags, after the offset tags."""
    object_behavior_on_tagging_error: Literal["ignore", "fail"] = "ignore"
    enable_conditional_writes: bool = True
    """The flag only; :attr:`SinkConfig.conditional_writes` says whether it applies."""
    send_digest: bool = False
    """``s3.send.digest``: a ``Content-MD5`` header on every uploaded part."""

    @classmethod
    def read_onto(cls, r: KeyReader, s3: S3Config) -> S3WriteConfig:
        """``s3`` with the SSE, ACL, tagging and credentials provider keys read on top.

        As Confluent's ``S3OutputStream``, the customer key counts only with ``AES256`` and the
        KMS key id only with ``aws:kms`` (else they are listed as ignored).
        """
        ssea, kms_key_id, customer_key = read_sse(r)
        acl = r.get("s3.acl.canned")
        if acl is not None and acl.strip() not in CANNED_ACLS:
            r.invalid("s3.acl.canned", acl, one_of_values(CANNED_ACLS))
        acl = acl.strip() if acl is not None and acl.strip() in CANNED_ACLS else None
        tagging = r.boolean("s3.object.tagging", False)
        extra = _extra_tags(r)
        on_error = r.choice(  # IgnoreOrFailBehavior.VALIDATOR
            "s3.object.behavior.on.tagging.error",
            "ignore",
            ("ignore", "fail"),
            why="String must be one of: ignore, fail",
        )
        return cls(
            **{f.name: getattr(s3, f.name) for f in fields(S3Config)},
            ssea_name=ssea,
            sse_kms_key_id=kms_key_id,
            sse_customer_key=customer_key,
            acl_canned=acl,
            object_tagging=tagging,
            object_tagging_extra=extra,
            object_behavior_on_tagging_error="fail" if on_error == "fail" else "ignore",
            enable_conditional_writes=r.boolean("enable.conditional.writes", True),
            send_digest=r.boolean("s3.send.digest", False),
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names (optional ones only when set), class names in full."""
        d = self._describe_location()
        if self.sse_customer_key is not None:
            d["s3.sse.customer.key"] = self.sse_customer_key
        if self.acl_canned is not None:
            d["s3.acl.canned"] = self.acl_canned
        d.update(self._describe_access())
        d.update(self._describe_transfer())
        d.update(
            {
                "s3.ssea.name": self.ssea_name,
                "s3.sse.kms.key.id": self.sse_kms_key_id,
                "s3.object.tagging": bool_text(self.object_tagging),
                "s3.object.tagging.key.value.pairs": ",".join(
                    f"{k}:{v}" for k, v in self.object_tagging_extra
                ),
                "s3.object.behavior.on.tagging.error": self.object_behavior_on_tagging_error,
                "s3.credentials.provider.class": CREDENTIALS_PROVIDER_CLASSES[
                    self.credentials_provider
                ],
                "enable.conditional.writes": bool_text(self.enable_conditional_writes),
                "s3.send.digest": bool_text(self.send_digest),
            }
        )
        return d


def _read_part_size(r: KeyReader) -> int:
    """``s3.part.size``: an INT within Confluent's ``PartRange`` (its messages)."""
    size = r.ranged("s3.part.size", 26_214_400)
    if size < _PART_SIZE_MIN:
        r.invalid(
            "s3.part.size",
            r.raw_text("s3.part.size"),
            f"Part size must be at least: {_PART_SIZE_MIN} bytes (5MB)",
        )
        return 26_214_400
    return size


def read_sse(r: KeyReader) -> tuple[str, str, str | None]:
    """``s3.ssea.name``, ``s3.sse.kms.key.id`` and ``s3.sse.customer.key``."""
    ssea = r.string("s3.ssea.name", "")
    if ssea and ssea not in SSE_ALGORITHMS:
        # ConfigDef.ValidString.in("", AES256, ...)
        r.invalid("s3.ssea.name", ssea, "String must be one of: , " + ", ".join(SSE_ALGORITHMS))
        ssea = ""
    kms_key_id = r.string("s3.sse.kms.key.id", "")
    if kms_key_id and ssea != "aws:kms":
        r.ignore("s3.sse.kms.key.id")
    customer = r.optional("s3.sse.customer.key")
    if customer is not None:
        if not _is_aes256_key(customer):
            r.invalid("s3.sse.customer.key", customer, "must be a base64-encoded 256-bit key")
        elif ssea != "AES256":
            r.ignore("s3.sse.customer.key")
    return ssea, kms_key_id, customer


def _is_aes256_key(text: str) -> bool:
    try:
        return len(base64.b64decode(text, validate=True)) == 32
    except (binascii.Error, ValueError):
        return False


def _extra_tags(r: KeyReader) -> tuple[tuple[str, str], ...]:
    """``s3.object.tagging.key.value.pairs``: a list of ``key:value`` (Confluent's LIST type),
    within S3's tag limits (10 tags an object, 3 of them the offset tags; key <= 128 and value
    <= 256 characters)."""
    key = "s3.object.tagging.key.value.pairs"
    text = r.optional(key)
    if text is None:
        return ()
    tags: dict[str, str] = {}
    for item in (part.strip() for part in text.split(",")):
        name, sep, value = item.partition(":")
        # Confluent's getS3Tag: split(":") then (kv[0], kv[1]): "a:b:c" tags a with "b"
        name, value = name.strip(), value.partition(":")[0].strip()
        if not sep or not name or len(name) > 128 or len(value) > 256:
            r.invalid(key, text, f"{item!r} is not key:value (key 1..128, value 0..256 chars)")
            return ()
        if name in ("startOffset", "endOffset", "recordCount"):
            r.invalid(key, text, f"tag {name!r} is an offset tag")
            return ()
        tags.pop(name, None)  # getS3Tag's HashMap: a key given again takes the later value
        tags[name] = value
    if len(tags) > 7:
        r.invalid(key, text, "at most 7 extra tags (S3 allows 10 an object, 3 are offset tags)")
        return ()
    return tuple(tags.items())


def _read_provider(r: KeyReader) -> Literal["default", "assume_role"]:
    """``s3.credentials.provider.class``: the default chain or assume-role."""
    provider = r.get("s3.credentials.provider.class")
    if provider is None or provider.strip() in _DEFAULT_CHAIN_ALIASES:
        return "default"
    if provider.strip() in (
        CREDENTIALS_PROVIDER_CLASSES["assume_role"],
        "AwsAssumeRoleCredentialsProvider",
    ):
        return "assume_role"
    r.later(
        "s3.credentials.provider.class",
        provider,
        "only " + " and ".join(CREDENTIALS_PROVIDER_CLASSES.values()) + " are supported",
    )
    return "default"


def _read_assume_role(r: KeyReader, assume_role: bool) -> dict[str, str | None]:
    """The ``s3.credentials.provider.sts.*`` keys and ``sts.endpoint.url`` (all None, and listed
    as ignored, unless ``assume_role``); other ``s3.credentials.provider.*`` keys are ignored."""
    # The S3 source's documentation writes them without the prefix: accepted too.
    values = {
        name: r.optional(_STS_PREFIX + name) or (r.optional(name) if name != "sts.region" else None)
        for name in _STS_KEYS
    }
    if assume_role:
        _check_assume_role(r, values)
        values["sts.endpoint.url"] = url = r.optional("sts.endpoint.url")
        if url is not None and not re.match(r"^https?://[^\s]+$", url):
            r.invalid("sts.endpoint.url", url, "must be an http:// or https:// URL")
    else:
        for name, value in values.items():
            if value is not None:
                r.ignore(_STS_PREFIX + name)
        if r.get("sts.endpoint.url") is not None:
            r.ignore("sts.endpoint.url")
        values = dict.fromkeys((*_STS_KEYS, "sts.endpoint.url"))
    # Other s3.credentials.provider.* keys configure a provider class; ours take none.
    for key in r.unread(_STS_PREFIX):
        r.get(key)
        r.ignore(key)
    return values


def _read_proxy(r: KeyReader) -> tuple[str | None, str | None, str | None]:
    """``s3.proxy.url``, ``.user`` and ``.password`` as stored: the URL checked as
    ``S3ProxyConfig`` parses it (the user and password keys count only with a URL), and a
    password in the URL moved to the password (unless that key is set) so it is never shown."""
    url, user, password = (r.optional(f"s3.proxy.{k}") for k in ("url", "user", "password"))
    if url is None:
        for key, value in (("s3.proxy.user", user), ("s3.proxy.password", password)):
            if value is not None:
                r.ignore(key)
        return None, None, None
    try:
        proxy = parse_proxy(url, user, password)
    except ValueError as exc:
        r.invalid(
            "s3.proxy.url",
            redacted_url(url),
            f"must be a proxy URL such as http://proxy.example.com:3128 ({exc})",
        )
        return None, None, None
    for key, value in (("s3.proxy.user", proxy.user), ("s3.proxy.password", proxy.password)):
        if value is not None and not value.isascii():
            r.invalid(key, value, "must be ASCII (botocore sends it as Basic authentication)")
    stored, url_password = without_password(url)
    return stored, user, password if password is not None else url_password


def _missing_sts(r: KeyReader, name: str, what: str) -> None:
    """A key ``AwsAssumeRoleCredentialsProvider``'s ``STS_CONFIG_DEF`` requires, with Kafka's
    message."""
    r.problem(
        f'{_STS_PREFIX}{name} is missing: Missing required configuration "{name}" which has '
        f"no default value. ({what}, needed by AwsAssumeRoleCredentialsProvider)"
    )


def _check_assume_role(r: KeyReader, values: Mapping[str, str | None]) -> None:
    arn = values["sts.role.arn"]
    if arn is None:
        _missing_sts(r, "sts.role.arn", "the ARN of the role to assume")
    elif not arn.startswith("arn:") or len(arn) < 20:
        r.invalid(_STS_PREFIX + "sts.role.arn", arn, "must be a role ARN (arn:aws:iam::...)")
    name = values["sts.role.session.name"]
    if name is None:
        _missing_sts(r, "sts.role.session.name", "a session name")
    elif not _SESSION_NAME_RE.match(name):
        r.invalid(
            _STS_PREFIX + "sts.role.session.name",
            name,
            "must be 2 to 64 characters of letters, digits and +=,.@_-",
        )
    external = values["sts.role.external.id"]
    if external is None:
        _missing_sts(r, "sts.role.external.id", "the role's external ID")
    elif not _EXTERNAL_ID_RE.match(external):
        r.invalid(
            _STS_PREFIX + "sts.role.external.id",
            external,
            "must be 2 to 1224 characters of letters, digits and +=,.@:/_-",
        )
    region = values["sts.region"]
    if region is not None and not _valid_region(region.lower()):
        r.invalid(_STS_PREFIX + "sts.region", region, "must be an AWS region such as us-west-2")
