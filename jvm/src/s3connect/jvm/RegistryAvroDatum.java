package s3connect.jvm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.spark.sql.api.java.UDF2;

/**
 * Whether a Kafka value in Confluent's Schema Registry wire format holds an Avro datum that
 * s3connect's AvroFormat writes back byte for byte, for the line path from AvroConverter into
 * AvroFormat (s3connect.sink.avro_datums): the Python workers then copy the datums after the
 * 5-byte prefix into the file's blocks, with no decoding.
 *
 * <p>The second argument is the 5-byte wire prefix of the one schema this column checks, then that
 * schema's JSON. The answer is true only when the value starts with that prefix and its datum is
 * read exactly to its last byte, as {@link RegistryAvroRow} reads it (strict UTF-8, booleans 0 or
 * 1, enum and union indexes in range), and is what an Avro writer writes for those values: the
 * shortest varints, each array and map in one block, no NaN (whose bits a reader may not keep),
 * dates, times and timestamps that Python's datetime holds, and each map's keys already in the
 * order AvroConverter and AvroData put them (Java's HashMaps: see {@link #inHashMapOrder}). Any
 * other value gives null, and the Python writer converts that record itself. Schemas with a
 * logical type other than date, time-millis and timestamp-millis, Connect's int8 or int16 or its
 * Decimal, or what {@link RegistryAvroRow} does not read, are not checked ({@link #checks}: false).
 */
public final class RegistryAvroDatum implements UDF2<byte[], byte[], Boolean> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
  private static final ThreadLocal<Last> LAST = ThreadLocal.withInitial(Last::new);

  /** The most keys of a map whose order is checked: Java's HashMaps never make tree bins there. */
  static final int MOST_MAP_KEYS = 24;

  // What Python's datetime, date and time hold (s3connect.formats.payloads._RANGES).
  private static final long FIRST_MS = -62135596800000L;
  private static final long LAST_MS = 253402300799999L;
  private static final long FIRST_DAY = -719162L;
  private static final long LAST_DAY = 2932896L;
  private static final long DAY_MS = 86400000L;

  private static final String CONNECT = "org.apache.kafka.connect.data.";

  /** The thread's last schema, decoder and re-encoding buffer. */
  private static final class Last {
    byte[] argument;
    Schema schema;
    BinaryDecoder decoder;
    final Written out = new Written();
    BinaryEncoder encoder;
  }

  /** A byte buffer whose bytes are compared in place. */
  private static final class Written extends ByteArrayOutputStream {
    boolean same(byte[] value, int from) {
      return Arrays.equals(buf, 0, count, value, from, value.length);
    }
  }

  @Override
  public Boolean call(byte[] value, byte[] prefixedSchema) {
    if (!RegistryAvroRow.framed(value, prefixedSchema)) {
      return null;
    }
    Last last = LAST.get();
    if (last.argument != prefixedSchema) {
      last.schema = RegistryAvroRow.parsed(SCHEMAS, prefixedSchema, RegistryAvroDatum::checked);
      last.argument = prefixedSchema;
    }
    if (last.schema == null) {
      return null;
    }
    BinaryDecoder in =
        DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, last.decoder);
    last.decoder = in;
    last.out.reset();
    BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(last.out, last.encoder);
    last.encoder = out;
    try {
      copy(last.schema, in, out, value.length);
      out.flush();
      return in.isEnd() && last.out.same(value, 5) ? Boolean.TRUE : null;
    } catch (IOException | RuntimeException | RegistryAvroRow.Unsure e) {
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
    boolean read = schema.getType() == Schema.Type.RECORD && RegistryAvroRow.sparkType(schema) != null;
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

  /** Read one value of {@code schema} and write it as Avro's writer does. */
  private static void copy(Schema schema, BinaryDecoder in, BinaryEncoder out, int limit)
      throws IOException, RegistryAvroRow.Unsure {
    switch (schema.getType()) {
      case RECORD:
        for (Schema.Field f : schema.getFields()) {
          copy(f.schema(), in, out, limit);
        }
        return;
      case ARRAY:
        long items = in.readArrayStart();
        out.writeArrayStart();
        out.setItemCount(block(items, limit));
        for (long i = 0; i < items; i++) {
          out.startItem();
          copy(schema.getElementType(), in, out, limit);
        }
        oneBlock(items, in);
        out.writeArrayEnd();
        return;
      case MAP:
        copyMap(schema, in, out, limit);
        return;
      case UNION:
        int index = in.readIndex();
        if (index < 0 || index >= schema.getTypes().size()) {
          throw RegistryAvroRow.UNSURE;
        }
        out.writeIndex(index);
        copy(schema.getTypes().get(index), in, out, limit);
        return;
      case ENUM:
        int symbol = in.readEnum();
        if (symbol < 0 || symbol >= schema.getEnumSymbols().size()) {
          throw RegistryAvroRow.UNSURE;
        }
        out.writeEnum(symbol);
        return;
      case STRING:
        out.writeString(RegistryAvroRow.string(in, limit));
        return;
      case BYTES:
        out.writeBytes(RegistryAvroRow.bytes(in, limit));
        return;
      case FIXED:
        byte[] fixed = new byte[schema.getFixedSize()];
        in.readFixed(fixed);
        out.writeFixed(fixed);
        return;
      case INT:
        int i = in.readInt();
        inRange(schema, i);
        out.writeInt(i);
        return;
      case LONG:
        long l = in.readLong();
        inRange(schema, l);
        out.writeLong(l);
        return;
      case FLOAT:
        float f = in.readFloat();
        if (Float.isNaN(f)) {
          throw RegistryAvroRow.UNSURE;
        }
        out.writeFloat(f);
        return;
      case DOUBLE:
        double d = in.readDouble();
        if (Double.isNaN(d)) {
          throw RegistryAvroRow.UNSURE;
        }
        out.writeDouble(d);
        return;
      case BOOLEAN:
        byte[] flag = new byte[1];
        in.readFixed(flag);
        if (flag[0] != 0 && flag[0] != 1) {
          throw RegistryAvroRow.UNSURE;
        }
        out.writeBoolean(flag[0] == 1);
        return;
      case NULL:
        return;
      default:
        throw RegistryAvroRow.UNSURE;
    }
  }

  /** A map's entries, in one block, with unique keys in the order AvroConverter gives them. */
  private static void copyMap(Schema schema, BinaryDecoder in, BinaryEncoder out, int limit)
      throws IOException, RegistryAvroRow.Unsure {
    long entries = in.readMapStart();
    out.writeMapStart();
    out.setItemCount(block(entries, limit));
    List<String> keys = new ArrayList<>((int) entries);
    for (long i = 0; i < entries; i++) {
      out.startItem();
      String key = RegistryAvroRow.string(in, limit);
      keys.add(key);
      out.writeString(key);
      copy(schema.getValueType(), in, out, limit);
    }
    oneBlock(entries, in);
    out.writeMapEnd();
    if (keys.size() > 1 && !inHashMapOrder(keys)) {
      throw RegistryAvroRow.UNSURE;
    }
  }

  /** A block's item count, when the value's bytes can hold that many. */
  private static long block(long count, int limit) throws RegistryAvroRow.Unsure {
    if (count < 0 || count > limit) {
      throw RegistryAvroRow.UNSURE;
    }
    return count;
  }

  /**
   * After a non-empty block, the end (a second block: written as one by Avro's writer); an empty
   * first block was the end.
   */
  private static void oneBlock(long first, BinaryDecoder in)
      throws IOException, RegistryAvroRow.Unsure {
    if (first > 0 && in.readLong() != 0) {
      throw RegistryAvroRow.UNSURE;
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

  /** Dates, times and timestamps that Python's datetime holds (else: unsure). */
  private static void inRange(Schema schema, long value) throws RegistryAvroRow.Unsure {
    String kind = schema.getProp("logicalType");
    String connect = schema.getProp("connect.name");
    boolean ok = true;
    if ("date".equals(kind) || (CONNECT + "Date").equals(connect)) {
      ok = value >= FIRST_DAY && value <= LAST_DAY;
    } else if ("time-millis".equals(kind) || (CONNECT + "Time").equals(connect)) {
      ok = value >= 0 && value < DAY_MS;
    } else if ("timestamp-millis".equals(kind) || (CONNECT + "Timestamp").equals(connect)) {
      ok = value >= FIRST_MS && value <= LAST_MS;
    }
    if (!ok) {
      throw RegistryAvroRow.UNSURE;
    }
  }
}
