package s3connect.jvm;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.spark.sql.api.java.UDF2;

/**
 * Whether a Kafka value in Confluent's Schema Registry wire format holds an Avro datum that
 * s3connect's AvroFormat writes back byte for byte, for the line path from AvroConverter into
 * AvroFormat (s3connect.sink.avro_datums): the Python workers then copy the datums after the
 * 5-byte prefix into the file's blocks, with no decoding.
 *
 * <p>The second argument is the 5-byte wire prefix of the one schema this column checks, then that
 * schema's JSON. The answer is true only when the value starts with that prefix and its datum,
 * walked in place to its last byte (no values made), is what Avro's reader reads as
 * {@link RegistryAvroRow} does (strict UTF-8, booleans 0 or 1, enum and union indexes in range)
 * and what Avro's writer writes again for those values: the shortest varints, each array and map in one block, no NaN (whose bits a reader may not keep),
 * dates, times and timestamps that Python's datetime holds, and each map's keys already in the
 * order AvroConverter and AvroData put them (Java's HashMaps: see {@link #inHashMapOrder}). Any
 * other value gives null, and the Python writer converts that record itself. Schemas with a
 * logical type other than date, time-millis and timestamp-millis, Connect's int8 or int16 or its
 * Decimal, or what {@link RegistryAvroRow} does not read, are not checked ({@link #checks}: false).
 */
public final class RegistryAvroDatum implements UDF2<byte[], byte[], Boolean> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Node> NODES = new ConcurrentHashMap<>();
  private static final ThreadLocal<Last> LAST = ThreadLocal.withInitial(Last::new);
  private static final RegistryAvroRow.Unsure UNSURE = RegistryAvroRow.UNSURE;

  /** The most keys of a map whose order is checked: Java's HashMaps never make tree bins there. */
  static final int MOST_MAP_KEYS = 24;

  // What Python's datetime, date and time hold (s3connect.formats.payloads._RANGES).
  private static final long FIRST_MS = -62135596800000L;
  private static final long LAST_MS = 253402300799999L;
  private static final long FIRST_DAY = -719162L;
  private static final long LAST_DAY = 2932896L;
  private static final long DAY_MS = 86400000L;

  private static final String CONNECT = "org.apache.kafka.connect.data.";

  /** The thread's last argument and its schema, compiled. */
  private static final class Last {
    byte[] argument;
    Node node;
  }

  /** A schema as the walk needs it: children, a size, the range of an int or long. */
  private static final class Node {
    final Schema.Type type;
    final Node[] children;
    final int size; // a fixed's bytes, an enum's symbols
    final long least;
    final long most;

    Node(Schema.Type type, Node[] children, int size, long least, long most) {
      this.type = type;
      this.children = children;
      this.size = size;
      this.least = least;
      this.most = most;
    }
  }

  @Override
  public Boolean call(byte[] value, byte[] prefixedSchema) {
    if (!RegistryAvroRow.framed(value, prefixedSchema)) {
      return null;
    }
    Last last = LAST.get();
    if (last.argument != prefixedSchema) {
      last.node = nodeOf(prefixedSchema);
      last.argument = prefixedSchema;
    }
    if (last.node == null) {
      return null;
    }
    Walk walk = new Walk(value);
    try {
      walk.datum(last.node);
      return walk.pos == value.length ? Boolean.TRUE : null;
    } catch (RegistryAvroRow.Unsure e) {
      return null;
    }
  }

  private static Node nodeOf(byte[] prefixedSchema) {
    String text = new String(prefixedSchema, 5, prefixedSchema.length - 5, StandardCharsets.UTF_8);
    try {
      return NODES.computeIfAbsent(text, t -> compiled(checked(t)));
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Whether this function checks datums of a schema (JSON) at all. */
  public static boolean checks(String schemaJson) {
    try {
      return checked(schemaJson) != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static Schema checked(String schemaJson) {
    Schema schema = RegistryAvroRow.parse(schemaJson);
    boolean read =
        schema.getType() == Schema.Type.RECORD && RegistryAvroRow.sparkType(schema) != null;
    return read && plain(schema, new ArrayList<>()) ? schema : null;
  }

  /** No logical type or Connect type whose values AvroData writes otherwise than it read them. */
  private static boolean plain(Schema schema, List<Schema> seen) {
    if (seen.stream().anyMatch(s -> s == schema)) {
      return true;
    }
    seen.add(schema);
    String logical = schema.getProp("logicalType");
    String connect = schema.getProp("connect.name");
    String connectType = schema.getProp("connect.type");
    switch (schema.getType()) {
      case RECORD:
        return schema.getFields().stream().allMatch(f -> plain(f.schema(), seen));
      case ARRAY:
        return plain(schema.getElementType(), seen);
      case MAP:
        return plain(schema.getValueType(), seen);
      case UNION:
        return schema.getTypes().stream().allMatch(s -> plain(s, seen));
      case INT:
        return (logical == null || logical.equals("date") || logical.equals("time-millis"))
            && connectType == null
            && (connect == null || connect.equals(CONNECT + "Date") || connect.equals(CONNECT + "Time"));
      case LONG:
        return (logical == null || logical.equals("timestamp-millis"))
            && (connect == null || connect.equals(CONNECT + "Timestamp"));
      default:
        return logical == null && (connect == null || !connect.startsWith(CONNECT));
    }
  }

  /** The schema as a tree of nodes (not recursive: {@link RegistryAvroRow#sparkType}). */
  private static Node compiled(Schema schema) {
    if (schema == null) {
      return null;
    }
    Schema.Type type = schema.getType();
    switch (type) {
      case RECORD:
        return parent(type, schema.getFields().stream().map(f -> compiled(f.schema())));
      case ARRAY:
        return parent(type, Stream.of(compiled(schema.getElementType())));
      case MAP:
        return parent(type, Stream.of(compiled(schema.getValueType())));
      case UNION:
        return parent(type, schema.getTypes().stream().map(RegistryAvroDatum::compiled));
      case ENUM:
        return new Node(type, null, schema.getEnumSymbols().size(), 0, 0);
      case FIXED:
        return new Node(type, null, schema.getFixedSize(), 0, 0);
      case INT:
      case LONG:
        long[] range = range(schema);
        return new Node(type, null, 0, range[0], range[1]);
      default:
        return new Node(type, null, 0, 0, 0);
    }
  }

  private static Node parent(Schema.Type type, Stream<Node> children) {
    return new Node(type, children.toArray(Node[]::new), 0, 0, 0);
  }

  /** The values an int or long may hold: dates, times and timestamps that Python holds. */
  private static long[] range(Schema schema) {
    String kind = schema.getProp("logicalType");
    String connect = schema.getProp("connect.name");
    if ("date".equals(kind) || (CONNECT + "Date").equals(connect)) {
      return new long[] {FIRST_DAY, LAST_DAY};
    }
    if ("time-millis".equals(kind) || (CONNECT + "Time").equals(connect)) {
      return new long[] {0, DAY_MS - 1};
    }
    if ("timestamp-millis".equals(kind) || (CONNECT + "Timestamp").equals(connect)) {
      return new long[] {FIRST_MS, LAST_MS};
    }
    return new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
  }

  /** One datum's bytes, walked in place: each value in the form Avro's writer gives it. */
  private static final class Walk {
    final byte[] b;
    int pos = 5;

    Walk(byte[] value) {
      this.b = value;
    }

    void datum(Node node) throws RegistryAvroRow.Unsure {
      switch (node.type) {
        case RECORD:
          for (Node field : node.children) {
            datum(field);
          }
          return;
        case ARRAY:
        case MAP:
          block(node);
          return;
        case UNION:
          datum(node.children[index(node.children.length)]);
          return;
        case ENUM:
          index(node.size);
          return;
        case STRING:
          utf8(length());
          return;
        case BYTES:
          skip(length());
          return;
        case FIXED:
          skip(node.size);
          return;
        case INT:
        case LONG:
          long v = varint(node.type == Schema.Type.INT ? 5 : 10);
          if (v < node.least || v > node.most) {
            throw UNSURE;
          }
          return;
        case FLOAT:
          skip(4);
          if (Float.isNaN(Float.intBitsToFloat((int) littleEndian(4)))) {
            throw UNSURE; // its bits may not be kept
          }
          return;
        case DOUBLE:
          skip(8);
          if (Double.isNaN(Double.longBitsToDouble(littleEndian(8)))) {
            throw UNSURE;
          }
          return;
        case BOOLEAN:
          skip(1);
          if ((b[pos - 1] & 0xfe) != 0) {
            throw UNSURE;
          }
          return;
        default: // null
      }
    }

    /** The bits of the float (4) or double (8) just passed. */
    private long littleEndian(int width) {
      long bits = 0;
      for (int i = 1; i <= width; i++) {
        bits = bits << 8 | (b[pos - i] & 0xff);
      }
      return bits;
    }

    /** An array's or map's one block of items and the end (0). */
    private void block(Node node) throws RegistryAvroRow.Unsure {
      long count = varint(10);
      if (count == 0) {
        return;
      }
      if (count < 0 || count > b.length - pos) {
        throw UNSURE; // a block with its size (negative count): not the writer's form
      }
      boolean map = node.type == Schema.Type.MAP;
      List<String> keys = map && count > 1 ? new ArrayList<>((int) count) : null;
      for (long i = 0; i < count; i++) {
        if (map) {
          int length = length();
          int start = pos;
          utf8(length);
          if (keys != null) {
            keys.add(new String(b, start, length, StandardCharsets.UTF_8));
          }
        }
        datum(node.children[0]);
      }
      if (varint(10) != 0) {
        throw UNSURE; // a second block: written as one
      }
      if (keys != null && !inHashMapOrder(keys)) {
        throw UNSURE;
      }
    }

    /** A union's or enum's index below {@code count}. */
    private int index(int count) throws RegistryAvroRow.Unsure {
      long i = varint(5);
      if (i < 0 || i >= count) {
        throw UNSURE;
      }
      return (int) i;
    }

    /** A string's or bytes' length, at most what is left. */
    private int length() throws RegistryAvroRow.Unsure {
      long n = varint(10);
      if (n < 0 || n > b.length - pos) {
        throw UNSURE;
      }
      return (int) n;
    }

    private void skip(int n) throws RegistryAvroRow.Unsure {
      if (n > b.length - pos) {
        throw UNSURE;
      }
      pos += n;
    }

    /**
     * A zig-zag varint of at most {@code most} bytes (5: an int, 10: a long) in its shortest
     * form, as Avro's writer writes it.
     */
    private long varint(int most) throws RegistryAvroRow.Unsure {
      long raw = 0;
      for (int i = 0; i < most && pos < b.length; i++) {
        int x = b[pos++] & 0xff;
        raw |= (long) (x & 0x7f) << (7 * i);
        if (x < 0x80) {
          if ((x == 0 && i > 0) || (i == most - 1 && x > (most == 5 ? 0x0f : 0x01))) {
            throw UNSURE; // longer than needed, or beyond 32 or 64 bits
          }
          return (raw >>> 1) ^ -(raw & 1);
        }
      }
      throw UNSURE;
    }

    /** {@code n} bytes of strict UTF-8 (what Java's decoder reports as malformed: unsure). */
    private void utf8(int n) throws RegistryAvroRow.Unsure {
      int end = pos + n;
      int i = pos;
      while (i < end) {
        int c = b[i];
        if (c >= 0) {
          i++;
          continue;
        }
        c &= 0xff;
        int more = c < 0xc2 ? -1 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : c < 0xf5 ? 3 : -1;
        if (more < 0 || i + more >= end) {
          throw UNSURE;
        }
        int low = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
        int high = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
        int second = b[i + 1] & 0xff;
        if (second < low || second > high) {
          throw UNSURE;
        }
        for (int k = 2; k <= more; k++) {
          if ((b[i + k] & 0xc0) != 0x80) {
            throw UNSURE;
          }
        }
        i += more + 1;
      }
      pos = end;
    }
  }

  /**
   * Whether distinct keys in a datum's order are in the order the writer puts them: AvroData's
   * {@code toConnectData} fills a {@code new HashMap<>(size)} in the datum's order, its
   * {@code fromConnectData} a {@code new HashMap<>()} in that map's order, whose order Avro's
   * writer follows. At most {@link #MOST_MAP_KEYS} keys (beyond, tree bins may differ).
   */
  static boolean inHashMapOrder(List<String> keys) {
    if (keys.size() > MOST_MAP_KEYS) {
      return false;
    }
    Map<String, Boolean> connect = new HashMap<>(keys.size());
    for (String key : keys) {
      if (connect.put(key, Boolean.TRUE) != null) {
        return false; // a repeated key: the reader keeps the last value in the first place
      }
    }
    Map<String, Boolean> avro = new HashMap<>();
    for (String key : connect.keySet()) {
      avro.put(key, Boolean.TRUE);
    }
    Set<String> order = avro.keySet();
    Iterator<String> written = order.iterator();
    for (String key : keys) {
      if (!key.equals(written.next())) {
        return false;
      }
    }
    return true;
  }

}
