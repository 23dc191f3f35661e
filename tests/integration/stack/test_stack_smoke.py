"""Each real part of the local stack works: Kafka through Spark, S3 through boto3, Delta."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from chispa import assert_df_equality
from confluent_kafka import Producer

pytestmark = pytest.mark.integration


def test_produce_then_read_back_with_spark_kafka_source(
    spark: Any, kafka_bootstrap: str, make_topic: Any, producer: Producer
) -> None:
    topic = make_topic("smoke", partitions=3)
    for i in range(9):
        producer.produce(topic, key=f"k{i}".encode(), value=f"v{i}".encode(), partition=i % 3)
    producer.flush(30)

    df = (
        spark.read.format("kafka")
        .option("kafka.bootstrap.servers", kafka_bootstrap)
        .option("subscribe", topic)
        .load()
        .selectExpr("partition", "offset", "CAST(key AS STRING) k", "CAST(value AS STRING) v")
    )
    expected = spark.createDataFrame(
        [(i % 3, i // 3, f"k{i}", f"v{i}") for i in range(9)],
        "partition INT, offset LONG, k STRING, v STRING",
    )
    assert_df_equality(df, expected, ignore_row_order=True, ignore_nullable=True)


def test_s3_put_get_and_multipart_upload(s3: Any, bucket: str) -> None:
    s3.put_object(Bucket=bucket, Key="a/b.txt", Body=b"hello")
    assert s3.get_object(Bucket=bucket, Key="a/b.txt")["Body"].read() == b"hello"

    part1, part2 = b"x" * (5 * 1024 * 1024), b"tail"
    upload = s3.create_multipart_upload(Bucket=bucket, Key="big.bin")
    parts = []
    for number, body in enumerate((part1, part2), start=1):
        etag = s3.upload_part(
            Bucket=bucket, Key="big.bin", UploadId=upload["UploadId"], PartNumber=number, Body=body
        )["ETag"]
        parts.append({"PartNumber": number, "ETag": etag})
    s3.complete_multipart_upload(
        Bucket=bucket, Key="big.bin", UploadId=upload["UploadId"], MultipartUpload={"Parts": parts}
    )
    got = s3.get_object(Bucket=bucket, Key="big.bin")["Body"].read()
    assert len(got) == len(part1) + 4 and got.endswith(b"xtail")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]]
    assert keys == ["a/b.txt", "big.bin"]


def test_delta_table_write_and_read(spark: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "delta")
    df = spark.createDataFrame([(1, "a"), (2, "b")], "id LONG, name STRING")
    df.write.format("delta").save(path)
    spark.createDataFrame([(3, "c")], "id LONG, name STRING").write.format("delta").mode(
        "append"
    ).save(path)
    got = spark.read.format("delta").load(path)
    expected = spark.createDataFrame([(1, "a"), (2, "b"), (3, "c")], "id LONG, name STRING")
    assert_df_equality(got, expected, ignore_row_order=True)
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").select("version").collect()
    assert sorted(r.version for r in history) == [0, 1]
