package s3connect.jvm;

import org.apache.spark.sql.api.java.UDF1;

/**
 * The JSON line of a Kafka value as the S3 sink writes it with StringConverter and JsonFormat:
 * the value's text as Jackson's ObjectMapper writes a string ({@link JsonTranscoder#quoted}).
 * A Spark SQL function over the Kafka value column (s3connect's line path).
 *
 * <p>Null wherever the Python writer must decide: a tombstone, and bytes that are not well-formed
 * UTF-8 (StringConverter's decoder replaces them).
 */
public final class StringJsonLine implements UDF1<byte[], byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public byte[] call(byte[] value) {
    return value == null ? null : JsonTranscoder.quoted(value);
  }
}
