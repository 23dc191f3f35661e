package s3connect.jvm;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.spark.sql.api.java.UDF1;

/**
 * The JSON line of a Kafka value as the S3 sink writes it with JsonConverter
 * (schemas.enable=false) and JsonFormat: Kafka's own JsonConverter reads the value, and Jackson's
 * ObjectMapper writes what it read, as Confluent's JsonRecordWriterProvider does. A Spark SQL
 * function over the Kafka value column (s3connect's line path, s3connect.sink.lines).
 *
 * <p>Returns null wherever the Python writer must decide: a null or blank value (a tombstone), a
 * value JsonConverter refuses (a dead letter or a failure, with its message), and a number this
 * JVM prints otherwise than Java 19 and later do (JDK-4511638: before 19, Double.toString gives
 * a longer decimal than needed for some doubles; s3connect writes what current Java writes).
 */
public final class SchemalessJsonLine implements UDF1<byte[], byte[]> {
  private static final long serialVersionUID = 1L;
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonConverter CONVERTER = converter();
  private static final boolean SHORTEST_DOUBLES = Runtime.version().feature() >= 19;

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

  /**
   * What JsonConverter reads from the value; null for a tombstone, a value it refuses, or one
   * with a double this JVM prints otherwise than Java 19+ (see the class comment).
   */
  static Object read(byte[] value) {
    if (value == null) {
      return null;
    }
    try {
      Object connect = CONVERTER.toConnectData("", value).value();
      boolean printable = connect != null && (SHORTEST_DOUBLES || doublesAsCurrentJava(connect));
      return printable ? connect : null;
    } catch (Exception e) {
      return null;
    }
  }

  /** Whether every double in a value JsonConverter read prints as Java 19+ prints it. */
  static boolean doublesAsCurrentJava(Object node) {
    if (node instanceof Double) {
      return printsShortest((Double) node);
    }
    if (node instanceof Map) {
      for (Object item : ((Map<?, ?>) node).values()) {
        if (!doublesAsCurrentJava(item)) {
          return false;
        }
      }
    } else if (node instanceof List) {
      for (Object item : (List<?>) node) {
        if (!doublesAsCurrentJava(item)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether Double.toString(d) here gives the digits of Java 19+: the shortest decimal that reads
   * back as d, the nearest of those; two digits when it has one and the nearest two-digit decimal
   * reads back too (4.9E-324). False also where this cannot tell (then the caller falls back).
   */
  static boolean printsShortest(double d) {
    if (d == 0 || !Double.isFinite(d)) {
      return true;
    }
    BigDecimal shown = new BigDecimal(Double.toString(d));
    int digits = shown.stripTrailingZeros().precision();
    BigDecimal exact = new BigDecimal(d);
    if (digits <= 15 && exact.compareTo(shown) == 0) {
      // d is exactly a decimal of at most 15 digits, so no other of at most 15 digits reads
      // back as d (DBL_DIG): it is the shortest and nearest, what Java 19+ prints too.
      return true;
    }
    BigDecimal shortest = digits > 1 ? nearestReadingBack(exact, d, digits - 1) : null;
    if (shortest == null) {
      shortest = nearestReadingBack(exact, d, digits);
    }
    if (shortest == null) {
      return false;
    }
    if (shortest.stripTrailingZeros().precision() == 1) {
      BigDecimal two = exact.round(new MathContext(2, RoundingMode.HALF_EVEN));
      if (two.doubleValue() == d) {
        shortest = two;
      }
    }
    return shortest.compareTo(shown) == 0;
  }

  /** The p-digit decimal nearest to d that reads back as d; null if none (or a tie). */
  private static BigDecimal nearestReadingBack(BigDecimal exact, double d, int p) {
    BigDecimal below = exact.round(new MathContext(p, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(p, RoundingMode.CEILING));
    boolean belowReads = below.doubleValue() == d;
    boolean aboveReads = above.doubleValue() == d;
    if (belowReads && aboveReads && below.compareTo(above) != 0) {
      int closer = exact.subtract(below).compareTo(above.subtract(exact));
      return closer < 0 ? below : closer > 0 ? above : null;
    }
    return belowReads ? below : aboveReads ? above : null;
  }
}
