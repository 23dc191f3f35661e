package s3connect.jvm;

import org.apache.spark.sql.api.java.UDF1;

/**
 * The JSON line of a Kafka value as the S3 sink writes it with JsonConverter
 * (schemas.enable=false) and JsonFormat, byte for byte what {@link JsonConverterLine} (Kafka's
 * JsonConverter and Jackson's ObjectMapper) gives: straight from the bytes where that is certain
 * ({@link JsonTranscoder}), else in one streaming pass ({@link SchemalessJson}).
 * A Spark SQL function over the Kafka value column (s3connect's line path, s3connect.sink.lines).
 *
 * <p>Null wherever the Python writer must decide: a tombstone, a value JsonConverter refuses, one
 * Jackson cannot write, one with a double Java 17 prints otherwise than Java 19+.
 */
public final class SchemalessJsonLine implements UDF1<byte[], byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public byte[] call(byte[] value) {
    byte[] line = JsonTranscoder.line(value);
    return line != null ? line : SchemalessJson.line(value);
  }
}
