package s3connect.jvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * A Kafka value in Confluent's Schema Registry wire format (magic byte 0, the schema id, an Avro
 * datum) as a Spark row of the datum's plain Avro values, for s3connect's line path from
 * AvroConverter into ParquetFormat (s3connect.sink.registry_datums): the Python workers then
 * write whole columns of them, typed by the Connect schema AvroData derives.
 *
 * <p>The second argument is the 5-byte wire prefix of the one schema this column reads, then that
 * schema's JSON ({@link #sparkType} gives the row's type). A value is read only when it starts with
 * that prefix and its datum is read exactly, to its last byte: strings strict UTF-8, booleans 0 or
 * 1, enum and union indexes in range. Anything else (another schema, a datum that is short, long
 * or malformed) gives null, and the Python writer reads that record itself, with its own rules and
 * errors. Maps keep their entries in the datum's order (the last of a repeated key wins, in its
 * first place), as the Python reader's dicts do. The schema may hold records, enums (their
 * symbols), arrays, string-keyed maps, fixed and bytes, primitives, and unions of null and one
 * other type only; for others {@link #sparkType} is null.
 */
public final class RegistryAvroRow implements UDF2<byte[], byte[], Row> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
  private static final ThreadLocal<Last> LAST = ThreadLocal.withInitial(Last::new);
  private static final ThreadLocal<CharsetDecoder> UTF8 =
      ThreadLocal.withInitial(
          () ->
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));

  /** The schema of the last prefix-and-schema argument this thread saw (a literal: one array). */
  private static final class Last {
    byte[] argument;
    Schema schema;
    BinaryDecoder decoder;
  }

  /** A datum this reader does not vouch for. */
  static final class Unsure extends Exception {
    private static final long serialVersionUID = 1L;

    Unsure() {
      super(null, null, false, false);
    }
  }

  static final Unsure UNSURE = new Unsure();

  @Override
  public Row call(byte[] value, byte[] prefixedSchema) {
    if (!framed(value, prefixedSchema)) {
      return null;
    }
    Last last = LAST.get();
    if (last.argument != prefixedSchema) {
      last.schema = parsed(SCHEMAS, prefixedSchema, RegistryAvroRow::readable);
      last.argument = prefixedSchema;
    }
    if (last.schema == null) {
      return null;
    }
    BinaryDecoder in =
        DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, last.decoder);
    last.decoder = in;
    try {
      Object row = read(last.schema, in, value.length);
      return in.isEnd() ? (Row) row : null;
    } catch (IOException | RuntimeException | Unsure e) {
      return null;
    }
  }

  /** Whether the value starts with the argument's 5-byte wire prefix. */
  static boolean framed(byte[] value, byte[] prefixedSchema) {
    if (value == null || prefixedSchema == null || value.length < 5) {
      return false;
    }
    for (int i = 0; i < 5; i++) {
      if (value[i] != prefixedSchema[i]) {
        return false;
      }
    }
    return true;
  }

  /** The argument's schema as {@code readable} parses it, once per schema; null: not read. */
  static Schema parsed(
      Map<String, Schema> cache, byte[] prefixedSchema, Function<String, Schema> readable) {
    String text = new String(prefixedSchema, 5, prefixedSchema.length - 5, StandardCharsets.UTF_8);
    try {
      return cache.computeIfAbsent(text, readable);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The schema, parsed, when this function reads it (a record {@link #sparkType} types). */
  private static Schema readable(String schemaJson) {
    Schema schema = parse(schemaJson);
    return schema.getType() == Schema.Type.RECORD && sparkType(schema) != null ? schema : null;
  }

  static Schema parse(String schemaJson) {
    return new Schema.Parser().setValidateDefaults(false).parse(schemaJson);
  }

  /**
   * The Spark type of the rows this function gives for a schema (JSON), every field nullable, as
   * a JSON text for Python's {@code DataType.fromJson}; null when the schema holds a kind it does
   * not read (a general union, a recursive record) or is not a record.
   */
  public static String sparkTypeJson(String schemaJson) {
    try {
      Schema schema = readable(schemaJson);
      return schema == null ? null : sparkType(schema).json();
    } catch (RuntimeException e) {
      return null;
    }
  }

  static DataType sparkType(Schema schema) {
    return sparkType(schema, new ArrayList<>());
  }

  /**
   * The schema's Spark type; null for what is not read: a general union, a recursive record, and
   * what takes no bytes (a record without fields, fixed of size 0: an array of them has no end).
   */
  private static DataType sparkType(Schema schema, List<Schema> open) {
    switch (schema.getType()) {
      case RECORD:
        if (schema.getFields().isEmpty() || open.stream().anyMatch(s -> s == schema)) {
          return null;
        }
        open.add(schema);
        List<StructField> fields = new ArrayList<>();
        for (Schema.Field f : schema.getFields()) {
          DataType t = sparkType(f.schema(), open);
          if (t == null) {
            return null;
          }
          fields.add(DataTypes.createStructField(f.name(), t, true));
        }
        open.remove(open.size() - 1);
        return DataTypes.createStructType(fields);
      case ARRAY:
        DataType items = sparkType(schema.getElementType(), open);
        return items == null ? null : DataTypes.createArrayType(items, true);
      case MAP:
        DataType values = sparkType(schema.getValueType(), open);
        return values == null ? null : DataTypes.createMapType(DataTypes.StringType, values, true);
      case UNION:
        Schema member = nullableMember(schema);
        return member == null ? null : sparkType(member, open);
      case ENUM:
      case STRING:
        return DataTypes.StringType;
      case FIXED:
        return schema.getFixedSize() == 0 ? null : DataTypes.BinaryType;
      case BYTES:
        return DataTypes.BinaryType;
      case INT:
        return DataTypes.IntegerType;
      case LONG:
        return DataTypes.LongType;
      case FLOAT:
        return DataTypes.FloatType;
      case DOUBLE:
        return DataTypes.DoubleType;
      case BOOLEAN:
        return DataTypes.BooleanType;
      default:
        return null; // a lone null
    }
  }

  /** The other member of a union of null and one type; null for any other union. */
  private static Schema nullableMember(Schema union) {
    List<Schema> members = union.getTypes();
    if (members.size() != 2) {
      return null;
    }
    boolean firstNull = members.get(0).getType() == Schema.Type.NULL;
    boolean secondNull = members.get(1).getType() == Schema.Type.NULL;
    if (firstNull == secondNull) {
      return null;
    }
    return members.get(firstNull ? 1 : 0);
  }

  /**
   * The value of {@code schema} at the decoder's position; {@code limit}: the most bytes a string
   * or bytes can hold (the Kafka value's length: a longer one is damage, never allocated).
   */
  private static Object read(Schema schema, BinaryDecoder in, int limit)
      throws IOException, Unsure {
    switch (schema.getType()) {
      case RECORD:
        List<Schema.Field> fields = schema.getFields();
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = read(fields.get(i).schema(), in, limit);
        }
        return RowFactory.create(values);
      case ARRAY:
        List<Object> items = new ArrayList<>();
        for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
          for (long i = 0; i < n; i++) {
            items.add(read(schema.getElementType(), in, limit));
          }
        }
        return items;
      case MAP:
        Map<String, Object> entries = new LinkedHashMap<>();
        for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
          for (long i = 0; i < n; i++) {
            String key = string(in, limit);
            entries.put(key, read(schema.getValueType(), in, limit));
          }
        }
        return entries;
      case UNION:
        int index = in.readIndex();
        if (index < 0 || index > 1) {
          throw UNSURE;
        }
        Schema member = schema.getTypes().get(index);
        return member.getType() == Schema.Type.NULL ? null : read(member, in, limit);
      case ENUM:
        int symbol = in.readEnum();
        List<String> symbols = schema.getEnumSymbols();
        if (symbol < 0 || symbol >= symbols.size()) {
          throw UNSURE;
        }
        return symbols.get(symbol);
      case STRING:
        return string(in, limit);
      case BYTES:
        return bytes(in, limit);
      case FIXED:
        byte[] fixed = new byte[schema.getFixedSize()];
        in.readFixed(fixed);
        return fixed;
      case INT:
        return in.readInt();
      case LONG:
        return in.readLong();
      case FLOAT:
        return in.readFloat();
      case DOUBLE:
        return in.readDouble();
      case BOOLEAN:
        byte[] flag = new byte[1];
        in.readFixed(flag);
        if (flag[0] != 0 && flag[0] != 1) {
          throw UNSURE;
        }
        return flag[0] == 1;
      default:
        throw UNSURE;
    }
  }

  /** Bytes: their length, then as many bytes (a length beyond {@code limit}: unsure). */
  static byte[] bytes(BinaryDecoder in, int limit) throws IOException, Unsure {
    long length = in.readLong();
    if (length < 0 || length > limit) {
      throw UNSURE;
    }
    byte[] out = new byte[(int) length];
    in.readFixed(out);
    return out;
  }

  /** A string's bytes as strict UTF-8 (malformed bytes: unsure). */
  static String string(BinaryDecoder in, int limit) throws IOException, Unsure {
    try {
      CharBuffer chars = UTF8.get().decode(ByteBuffer.wrap(bytes(in, limit)));
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw UNSURE;
    }
  }
}
