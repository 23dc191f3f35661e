package s3connect.jvm;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.spark.sql.api.java.UDF1;

/**
 * The JSON line of a Kafka value exactly as the S3 sink writes it with JsonConverter
 * (schemas.enable=false) and JsonFormat: Kafka's own JsonConverter reads the value, and Jackson's
 * ObjectMapper writes what it read, as Confluent's JsonRecordWriterProvider does. The reference
 * {@link SchemalessJson} falls back to, and a Spark SQL function to compare it with.
 *
 * <p>Null for a null or blank value (a tombstone), a value JsonConverter refuses (a dead letter
 * or a failure, with its message), one Jackson cannot write (a lone surrogate), and one with a
 * double this JVM prints otherwise than Java 19+ ({@link JavaDoubles}): the Python writer decides
 * those.
 */
public final class JsonConverterLine implements UDF1<byte[], byte[]> {
  private static final long serialVersionUID = 1L;
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonConverter CONVERTER = converter();

  private static JsonConverter converter() {
    JsonConverter converter = new JsonConverter(false); // no Blackbird: the same output
    converter.configure(Map.of("schemas.enable", "false"), false);
    return converter;
  }

  @Override
  public byte[] call(byte[] value) {
    Object connect = read(value);
    try {
      return connect == null ? null : MAPPER.writeValueAsBytes(connect);
    } catch (Exception e) {
      return null;
    }
  }

  /** What JsonConverter reads from the value; null where the class comment says. */
  static Object read(byte[] value) {
    if (value == null) {
      return null;
    }
    try {
      Object connect = CONVERTER.toConnectData("", value).value();
      return connect != null && JavaDoubles.allAsCurrentJava(connect) ? connect : null;
    } catch (Exception e) {
      return null;
    }
  }
}
