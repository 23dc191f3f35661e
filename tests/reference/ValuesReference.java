import java.io.*;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.apache.kafka.connect.data.*;

/**
 * Kafka Connect's Values (connect-api) on texts: one line per case on stdin, "<op> <base64 text>";
 * one line out per case: "OK <result>" or "ERR <exception class>: <message>". Ops: P parseString
 * ("<schema> <value> <convertToString of it>", or NULL), L convertToList, M convertToMap, b
 * convertToBoolean, 1 2 4 8 convertToByte/Short/Integer/Long, f d convertToFloat/Double, t D T
 * convertToTime/Date/Timestamp, S convertToStruct (all with a null schema). Values are written
 * with their Java kind: n integer, f Float, d Double, D BigDecimal, T a Date's millis. The JVM
 * runs in UTC, as our dates are.
 */
public class ValuesReference {
  static String schema(Schema s) {
    if (s == null) return "-";
    StringBuilder b = new StringBuilder(s.type().toString());
    if (s.name() != null) b.append("<").append(s.name().replace("org.apache.kafka.connect.data.", "")).append(">");
    if (s.isOptional()) b.append("?");
    if (s.parameters() != null && !s.parameters().isEmpty()) b.append(new TreeMap<>(s.parameters()));
    if (s.type() == Schema.Type.ARRAY) b.append("(").append(schema(s.valueSchema())).append(")");
    if (s.type() == Schema.Type.MAP) b.append("(").append(schema(s.keySchema())).append(",").append(schema(s.valueSchema())).append(")");
    return b.toString();
  }
  static String value(Object v) {
    if (v == null) return "null";
    if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) return "n" + v;
    if (v instanceof Float) return "f" + v;
    if (v instanceof Double) return "d" + v;
    if (v instanceof BigDecimal) return "D" + v;
    if (v instanceof Boolean) return v.toString();
    if (v instanceof String) return "'" + v + "'";
    if (v instanceof java.util.Date) return "T" + ((java.util.Date) v).getTime();
    if (v instanceof byte[]) return "B" + Base64.getEncoder().encodeToString((byte[]) v);
    if (v instanceof List) { StringBuilder b = new StringBuilder("["); for (Object o : (List<?>) v) b.append(value(o)).append(","); return b.append("]").toString(); }
    if (v instanceof Map) { StringBuilder b = new StringBuilder("{"); for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) b.append(value(e.getKey())).append("=").append(value(e.getValue())).append(","); return b.append("}").toString(); }
    return "?" + v.getClass().getName();
  }
  public static void main(String[] args) throws Exception {
    TimeZone.setDefault(TimeZone.getTimeZone("UTC")); // Values parses dates in the JVM's zone
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String line;
    while ((line = in.readLine()) != null) {
      String op = line.substring(0, 1);
      String text = new String(Base64.getDecoder().decode(line.substring(2)), StandardCharsets.UTF_8);
      String r;
      try {
        switch (op) {
          case "P": { SchemaAndValue sv = Values.parseString(text);
            r = sv == null ? "NULL" : schema(sv.schema()) + " " + value(sv.value()) + " " + Values.convertToString(sv.schema(), sv.value()); break; }
          case "L": r = value(Values.convertToList(null, text)); break;
          case "M": r = value(Values.convertToMap(null, text)); break;
          case "b": r = value(Values.convertToBoolean(null, text)); break;
          case "1": r = value(Values.convertToByte(null, text)); break;
          case "2": r = value(Values.convertToShort(null, text)); break;
          case "4": r = value(Values.convertToInteger(null, text)); break;
          case "8": r = value(Values.convertToLong(null, text)); break;
          case "f": r = value(Values.convertToFloat(null, text)); break;
          case "d": r = value(Values.convertToDouble(null, text)); break;
          case "t": r = value(Values.convertToTime(null, text)); break;
          case "D": r = value(Values.convertToDate(null, text)); break;
          case "T": r = value(Values.convertToTimestamp(null, text)); break;
          case "S": r = value(Values.convertToStruct(null, text)); break;
          default: r = "?";
        }
        r = "OK " + r;
      } catch (Throwable e) {
        r = "ERR " + e.getClass().getSimpleName() + ": " + e.getMessage();
      }
      out.println(r.replace("\n", "\\n"));
    }
    out.flush();
  }
}
