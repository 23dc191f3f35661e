package s3connect.jvm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A Connect schema as a JsonConverter envelope gives it, for writing payloads as the Avro datums
 * of AvroData's schema of it (Avro's binary encoding: zig-zag varints, little-endian floats,
 * length-prefixed strings and bytes, arrays and maps in one block, an optional value as the union
 * {@code ["null", type]}). It takes only what it is sure of and throws {@link Unsure} for the
 * rest (see {@link JsonAvroDatum}).
 */
final class AvroDatumSchema {
  /** The schema or a value is one this does not write; the record goes through Python. */
  static final class Unsure extends Exception {
    private static final long serialVersionUID = 1L;

    Unsure() {
      super(null, null, false, false);
    }
  }

  private static final Unsure UNSURE = new Unsure();

  /** The plain kinds first, up to STRING (see {@link #parquetReadable}). */
  private enum Kind {
    INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING, BYTES, ARRAY, MAP, STRUCT,
    DATE, TIME, TIMESTAMP
  }

  private static final Map<String, Kind> TYPES = new HashMap<>();
  private static final Set<String> KEYS =
      new HashSet<>(
          Arrays.asList(
              "type", "optional", "name", "version", "doc", "field", "fields", "items", "keys",
              "values", "default"));
  /** Python's datetime range (years 1 to 9999): beyond it the Python writer refuses. */
  private static final long MIN_MILLIS = -62_135_596_800_000L;
  private static final long MAX_MILLIS = 253_402_300_799_999L;
  private static final long MIN_DAYS = -719_162L;
  private static final long MAX_DAYS = 2_932_896L;
  private static final long MILLIS_PER_DAY = 86_400_000L;

  static {
    TYPES.put("int8", Kind.INT8);
    TYPES.put("int16", Kind.INT16);
    TYPES.put("int32", Kind.INT32);
    TYPES.put("int64", Kind.INT64);
    TYPES.put("float", Kind.FLOAT32);
    TYPES.put("double", Kind.FLOAT64);
    TYPES.put("boolean", Kind.BOOLEAN);
    TYPES.put("string", Kind.STRING);
    TYPES.put("bytes", Kind.BYTES);
    TYPES.put("array", Kind.ARRAY);
    TYPES.put("map", Kind.MAP);
    TYPES.put("struct", Kind.STRUCT);
  }

  private final Kind kind;
  private final boolean optional;
  private final String[] names;
  private final AvroDatumSchema[] children;
  /** Names the top-level schema among those one JVM has seen (see {@link JsonAvroDatum}). */
  long id;
  /** No maps and no empty struct in it (Arrow's JSON reader reads its payloads as s3connect's
   * ParquetFormat writes them, bytes as their base64 text; Parquet has no empty groups): see
   * {@link JsonParquetPayload}. */
  final boolean arrowReadable;

  private AvroDatumSchema(Kind kind, boolean optional, String[] names, AvroDatumSchema[] children) {
    this.kind = kind;
    this.optional = optional;
    this.names = names;
    this.children = children;
    boolean readable =
        kind != Kind.MAP && !(kind == Kind.STRUCT && children.length == 0);
    for (int i = 0; children != null && i < children.length; i++) {
      readable &= children[i].arrowReadable;
    }
    this.arrowReadable = readable;
  }

  AvroDatumSchema named(long id) {
    this.id = id;
    return this;
  }

  /** A struct whose payloads Arrow's JSON reader reads as s3connect's ParquetFormat writes them
   * (see {@link JsonParquetPayload}): each field {@link #arrowReadable}, or a map of plain values
   * (which the Python writer reads apart, record by record). */
  boolean parquetReadable() {
    if (kind != Kind.STRUCT || children.length == 0) {
      return false;
    }
    for (AvroDatumSchema child : children) {
      boolean plainMap =
          child.kind == Kind.MAP && child.children[0].kind.ordinal() <= Kind.STRING.ordinal();
      if (!child.arrowReadable && !plainMap) {
        return false;
      }
    }
    return true;
  }

  static AvroDatumSchema unsupported() {
    return new AvroDatumSchema(null, false, null, null);
  }

  /** The schema of a JsonConverter envelope's {@code schema} node. */
  static AvroDatumSchema of(JsonNode node) throws Unsure {
    check(node != null && node.isObject());
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      check(KEYS.contains(entry.getKey()));
    }
    JsonNode type = node.get("type");
    JsonNode optional = node.get("optional");
    JsonNode name = node.get("name");
    JsonNode version = node.get("version");
    JsonNode defaults = node.get("default");
    check(type != null && type.isTextual() && TYPES.containsKey(type.textValue()));
    check(optional == null || optional.isBoolean());
    check(name == null || name.isTextual());
    check(version == null || version.isInt());
    boolean isOptional = optional != null && optional.booleanValue();
    // "default": null is JsonConverter's default of an optional schema; a required one fails.
    check(defaults == null || (defaults.isNull() && isOptional));
    Kind kind = logical(TYPES.get(type.textValue()), name == null ? null : name.textValue());
    switch (kind) {
      case ARRAY:
        return new AvroDatumSchema(kind, isOptional, null, new AvroDatumSchema[] {of(node.get("items"))});
      case MAP:
        AvroDatumSchema keys = of(node.get("keys"));
        check(keys.kind == Kind.STRING && !keys.optional && node.get("keys").get("name") == null);
        return new AvroDatumSchema(kind, isOptional, null, new AvroDatumSchema[] {of(node.get("values"))});
      case STRUCT:
        return struct(node.get("fields"), isOptional);
      default:
        return new AvroDatumSchema(kind, isOptional, null, null);
    }
  }

  private static AvroDatumSchema struct(JsonNode fields, boolean optional) throws Unsure {
    check(fields != null && fields.isArray());
    String[] names = new String[fields.size()];
    AvroDatumSchema[] children = new AvroDatumSchema[fields.size()];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.length; i++) {
      JsonNode field = fields.get(i);
      check(field.isObject() && field.path("field").isTextual());
      names[i] = field.get("field").textValue();
      check(seen.add(names[i]));
      children[i] = of(field);
    }
    return new AvroDatumSchema(Kind.STRUCT, optional, names, children);
  }

  /** Date, Time and Timestamp on their Connect types; other Connect or Confluent names (Decimal,
   * AvroData's unions and enums) are not for this. */
  private static Kind logical(Kind kind, String name) throws Unsure {
    if (name == null) {
      return kind;
    }
    switch (name) {
      case "org.apache.kafka.connect.data.Date":
        check(kind == Kind.INT32);
        return Kind.DATE;
      case "org.apache.kafka.connect.data.Time":
        check(kind == Kind.INT32);
        return Kind.TIME;
      case "org.apache.kafka.connect.data.Timestamp":
        check(kind == Kind.INT64);
        return Kind.TIMESTAMP;
      default:
        check(!name.startsWith("org.apache.kafka.connect.") && !name.startsWith("io.confluent."));
        return kind;
    }
  }

  /** Writes {@code value} (null or missing: JSON null) as this schema's datum. */
  void write(JsonNode value, Out out) throws Unsure {
    if (value == null || value.isNull()) {
      check(optional);
      out.varint(0); // the union's "null" branch
      return;
    }
    if (optional) {
      out.varint(2); // zig-zag of branch 1
    }
    switch (kind) {
      case INT8:
        out.varint(zigzag(integral(value, Byte.MIN_VALUE, Byte.MAX_VALUE)));
        break;
      case INT16:
        out.varint(zigzag(integral(value, Short.MIN_VALUE, Short.MAX_VALUE)));
        break;
      case INT32:
        out.varint(zigzag(integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE)));
        break;
      case INT64:
      case TIMESTAMP:
        long low = kind == Kind.INT64 ? Long.MIN_VALUE : MIN_MILLIS;
        long high = kind == Kind.INT64 ? Long.MAX_VALUE : MAX_MILLIS;
        out.varint(zigzag(integral(value, low, high)));
        break;
      case DATE:
        out.varint(zigzag(integral(value, MIN_DAYS, MAX_DAYS)));
        break;
      case TIME:
        out.varint(zigzag(integral(value, 0, MILLIS_PER_DAY - 1)));
        break;
      case FLOAT32:
        out.int32le(Float.floatToRawIntBits(float32(real(value))));
        break;
      case FLOAT64:
        out.int64le(Double.doubleToRawLongBits(real(value)));
        break;
      case BOOLEAN:
        check(value.isBoolean());
        out.write(value.booleanValue() ? 1 : 0);
        break;
      case STRING:
        check(value.isTextual());
        out.bytes(utf8(value.textValue()));
        break;
      case BYTES:
        out.bytes(base64(value));
        break;
      case ARRAY:
        array(value, out);
        break;
      case MAP:
        map(value, out);
        break;
      default:
        check(value.isObject());
        for (int i = 0; i < names.length; i++) {
          children[i].write(value.get(names[i]), out);
        }
    }
  }

  /**
   * Writes the value whose first token {@code t} the parser is at, as {@link #write} does, in
   * one pass: each struct's fields must come in the schema's order, all of them and no other;
   * false when they do not (the caller reads the value as a tree instead).
   */
  boolean stream(JsonParser p, JsonToken t, Out out) throws IOException, Unsure {
    if (t == JsonToken.VALUE_NULL) {
      check(optional);
      out.varint(0);
      return true;
    }
    if (optional) {
      out.varint(2);
    }
    switch (kind) {
      case INT8:
        out.varint(zigzag(integral(p, t, Byte.MIN_VALUE, Byte.MAX_VALUE)));
        return true;
      case INT16:
        out.varint(zigzag(integral(p, t, Short.MIN_VALUE, Short.MAX_VALUE)));
        return true;
      case INT32:
        out.varint(zigzag(integral(p, t, Integer.MIN_VALUE, Integer.MAX_VALUE)));
        return true;
      case INT64:
        out.varint(zigzag(integral(p, t, Long.MIN_VALUE, Long.MAX_VALUE)));
        return true;
      case TIMESTAMP:
        out.varint(zigzag(integral(p, t, MIN_MILLIS, MAX_MILLIS)));
        return true;
      case DATE:
        out.varint(zigzag(integral(p, t, MIN_DAYS, MAX_DAYS)));
        return true;
      case TIME:
        out.varint(zigzag(integral(p, t, 0, MILLIS_PER_DAY - 1)));
        return true;
      case FLOAT32:
        out.int32le(Float.floatToRawIntBits(float32(real(p, t))));
        return true;
      case FLOAT64:
        out.int64le(Double.doubleToRawLongBits(real(p, t)));
        return true;
      case BOOLEAN:
        check(t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE);
        out.write(t == JsonToken.VALUE_TRUE ? 1 : 0);
        return true;
      case STRING:
        check(t == JsonToken.VALUE_STRING);
        out.bytes(utf8(p.getText()));
        return true;
      case BYTES:
        check(t == JsonToken.VALUE_STRING);
        out.bytes(base64(p.getText()));
        return true;
      case ARRAY:
        return streamArray(p, t, out);
      case MAP:
        return streamMap(p, t, out);
      default:
        check(t == JsonToken.START_OBJECT);
        for (int i = 0; i < names.length; i++) {
          if (p.nextToken() != JsonToken.FIELD_NAME || !names[i].equals(p.currentName())) {
            return false;
          }
          if (!children[i].stream(p, p.nextToken(), out)) {
            return false;
          }
        }
        return p.nextToken() == JsonToken.END_OBJECT;
    }
  }

  /** An array's items, then its count put before them. */
  private boolean streamArray(JsonParser p, JsonToken t, Out out) throws IOException, Unsure {
    check(t == JsonToken.START_ARRAY);
    int start = out.size;
    long count = 0;
    for (JsonToken item = p.nextToken(); item != JsonToken.END_ARRAY; item = p.nextToken()) {
      if (!children[0].stream(p, item, out)) {
        return false;
      }
      count++;
    }
    if (count > 0) {
      out.insertVarint(start, zigzag(count));
    }
    out.varint(0);
    return true;
  }

  /** A map's entries, written first in the JSON's order, then again in the HashMap's. */
  private boolean streamMap(JsonParser p, JsonToken t, Out out) throws IOException, Unsure {
    check(t == JsonToken.START_OBJECT);
    int start = out.size;
    Map<String, int[]> spans = new HashMap<>();
    for (JsonToken key = p.nextToken(); key != JsonToken.END_OBJECT; key = p.nextToken()) {
      String name = p.currentName();
      int at = out.size;
      if (!children[0].stream(p, p.nextToken(), out)) {
        return false;
      }
      spans.put(name, new int[] {at - start, out.size - start});
    }
    byte[] values = Arrays.copyOfRange(out.buf, start, out.size);
    out.size = start;
    if (!spans.isEmpty()) {
      out.varint(zigzag(spans.size()));
      for (Map.Entry<String, int[]> entry : spans.entrySet()) {
        out.bytes(utf8(entry.getKey()));
        int[] span = entry.getValue();
        out.raw(values, span[0], span[1] - span[0]);
      }
    }
    out.varint(0);
    return true;
  }

  private static long integral(JsonParser p, JsonToken t, long low, long high)
      throws IOException, Unsure {
    check(t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER);
    long n = p.getLongValue();
    check(n >= low && n <= high);
    return n;
  }

  private static double real(JsonParser p, JsonToken t) throws IOException, Unsure {
    check(t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT);
    double d = p.getDoubleValue();
    check(d != 0 && Double.isFinite(d));
    return d;
  }

  private void array(JsonNode value, Out out) throws Unsure {
    check(value.isArray());
    if (value.size() > 0) {
      out.varint(zigzag(value.size()));
      for (JsonNode item : value) {
        children[0].write(item, out);
      }
    }
    out.varint(0);
  }

  /** A map's entries in the order of the HashMap JsonConverter fills in the JSON's order. */
  private void map(JsonNode value, Out out) throws Unsure {
    check(value.isObject());
    Map<String, JsonNode> entries = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      entries.put(entry.getKey(), entry.getValue());
    }
    if (!entries.isEmpty()) {
      out.varint(zigzag(entries.size()));
      for (Map.Entry<String, JsonNode> entry : entries.entrySet()) {
        out.bytes(utf8(entry.getKey()));
        children[0].write(entry.getValue(), out);
      }
    }
    out.varint(0);
  }

  private static long integral(JsonNode value, long low, long high) throws Unsure {
    check(value.isIntegralNumber() && value.canConvertToLong());
    long n = value.longValue();
    check(n >= low && n <= high);
    return n;
  }

  /** A JSON number as JsonConverter's BigDecimal (or integer) gives it as a double; a zero (its
   * sign is JsonConverter's to decide) or a value beyond a double is left to Python. */
  private static double real(JsonNode value) throws Unsure {
    check(value.isNumber());
    double d = value.doubleValue();
    check(d != 0 && Double.isFinite(d));
    return d;
  }

  /**
   * A float field's value: the double JsonConverter reads, rounded to a float as Python's writer
   * does; a double halfway between two floats is left to Python (rounding the decimal straight
   * to a float, as Arrow's JSON reader does, may then round the other way).
   */
  private static float float32(double d) throws Unsure {
    float f = (float) d;
    check(Float.isFinite(f));
    if (f != d) {
      float other = d > f ? Math.nextUp(f) : Math.nextDown(f);
      check(d != ((double) f + (double) other) / 2); // exact: two floats' sum fits a double
    }
    return f;
  }

  /** Base64 that Python's strict decoding reads alike: only what encodes back to itself. */
  private static byte[] base64(JsonNode value) throws Unsure {
    check(value.isTextual());
    return base64(value.textValue());
  }

  private static byte[] base64(String text) throws Unsure {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw UNSURE;
    }
    check(Base64.getEncoder().encodeToString(raw).equals(text));
    return raw;
  }

  /** UTF-8 of a string; a lone surrogate (which Python cannot encode) is left to Python. */
  private static byte[] utf8(String text) throws Unsure {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isSurrogate(c)) {
        check(Character.isHighSurrogate(c) && i + 1 < text.length()
            && Character.isLowSurrogate(text.charAt(i + 1)));
        i++;
      }
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static long zigzag(long n) {
    return (n << 1) ^ (n >> 63);
  }

  static void check(boolean ok) throws Unsure {
    if (!ok) {
      throw UNSURE;
    }
  }

  /** A growable byte buffer, reused by a thread for one datum after another. */
  static final class Out {
    byte[] buf = new byte[4096];
    int size;

    void reset() {
      size = 0;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }

    void write(int b) {
      room(1);
      buf[size++] = (byte) b;
    }

    void varint(long n) {
      room(10);
      while ((n & ~0x7FL) != 0) {
        buf[size++] = (byte) ((n & 0x7F) | 0x80);
        n >>>= 7;
      }
      buf[size++] = (byte) n;
    }

    void int32le(int n) {
      room(4);
      for (int i = 0; i < 4; i++) {
        buf[size++] = (byte) (n >>> (8 * i));
      }
    }

    void int64le(long n) {
      room(8);
      for (int i = 0; i < 8; i++) {
        buf[size++] = (byte) (n >>> (8 * i));
      }
    }

    void bytes(byte[] data) {
      varint(zigzag(data.length));
      raw(data, 0, data.length);
    }

    void raw(byte[] data, int from, int length) {
      room(length);
      System.arraycopy(data, from, buf, size, length);
      size += length;
    }

    /** Puts the varint of {@code n} at {@code at}, moving what follows it. */
    void insertVarint(int at, long n) {
      int end = size;
      varint(n);
      int length = size - end;
      byte[] encoded = Arrays.copyOfRange(buf, end, size);
      System.arraycopy(buf, at, buf, at + length, end - at);
      System.arraycopy(encoded, 0, buf, at, length);
    }

    private void room(int n) {
      if (size + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
      }
    }
  }
}
