package s3connect.jvm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;

/**
 * The Avro datum of a JsonConverter envelope ({@code schemas.enable=true}) as s3connect's
 * AvroFormat writes it (AvroData's Avro schema of the envelope's Connect schema), and a number
 * naming the envelope's bytes before its payload ({@code {"schema":...,"payload":}) in this JVM,
 * never reused, by which the Python workers tell records of one schema. A Spark SQL function over
 * the Kafka value column (s3connect's line path for Avro, s3connect.sink.envelopes).
 *
 * <p>Only where the datum is certain: a compact envelope, a schema of the plain Connect types,
 * Date, Time and Timestamp, optional fields without defaults, maps with string keys, and a
 * payload whose every value is of exactly its field's JSON kind. Everything else gives a null
 * row and goes through the Python writer record by record: a tombstone, a schema with a default,
 * parameters or a Decimal, a number of the wrong kind or out of range, a float that is zero or not
 * finite (or, for a float field, a double halfway between two floats), base64 that does not read back to itself, a string with a lone surrogate, a duplicate
 * key, anything not strict JSON.
 */
public final class JsonAvroDatum implements UDF1<byte[], Row> {
  private static final long serialVersionUID = 1L;
  private static final Row NONE = RowFactory.create(null, null);
  private static final byte[] HEAD = "{\"schema\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PAYLOAD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);
  private static final JsonFactory FACTORY =
      new JsonFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  /** Floats as doubles: Java's parse rounds a decimal to the nearest double, as JsonConverter's
   * BigDecimal.doubleValue() does (and Python's float()); zeros and infinities are left out. */
  private static final ObjectMapper MAPPER =
      new ObjectMapper(FACTORY).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  /** Encoders by the envelope's bytes before the payload; {@link #UNSUPPORTED} for a schema
   * this cannot encode. */
  private static final Map<ByteBuffer, AvroDatumSchema> SCHEMAS = new ConcurrentHashMap<>();
  private static final AvroDatumSchema UNSUPPORTED = AvroDatumSchema.unsupported();
  private static final AtomicLong IDS = new AtomicLong();
  private static final int MAX_SCHEMAS = 1000;
  static final ThreadLocal<AvroDatumSchema.Out> OUT =
      ThreadLocal.withInitial(AvroDatumSchema.Out::new);
  /** The envelope prefix a thread saw last and its schema: a value starting with the same bytes
   * has the same schema and payload start, without parsing or hashing them again. */
  private static final ThreadLocal<Object[]> LAST = ThreadLocal.withInitial(() -> new Object[2]);

  @Override
  public Row call(byte[] value) {
    try {
      return datum(value);
    } catch (IOException | AvroDatumSchema.Unsure e) {
      return NONE;
    }
  }

  static Row datum(byte[] value) throws IOException, AvroDatumSchema.Unsure {
    AvroDatumSchema schema = schemaOf(value);
    if (schema == null) {
      return NONE;
    }
    AvroDatumSchema.Out out = OUT.get();
    encode(value, payloadStart(), schema, out);
    return RowFactory.create(out.toByteArray(), schema.id);
  }

  /**
   * The schema of the envelope {@code value} (its payload starting at {@link #payloadStart()}),
   * or null: not an envelope, a schema this cannot write.
   */
  static AvroDatumSchema schemaOf(byte[] value) throws IOException {
    if (value == null || !startsWith(value, HEAD) || value[value.length - 1] != '}') {
      return null;
    }
    Object[] last = LAST.get();
    byte[] seen = (byte[]) last[0];
    if (seen != null
        && value.length > seen.length
        && Arrays.equals(value, 0, seen.length, seen, 0, seen.length)) {
      return last[1] == UNSUPPORTED ? null : (AvroDatumSchema) last[1];
    }
    int prefix = payloadStart(value);
    if (prefix < 0) {
      return null;
    }
    AvroDatumSchema schema = schema(value, prefix);
    last[0] = Arrays.copyOf(value, prefix);
    last[1] = schema;
    return schema == UNSUPPORTED ? null : schema;
  }

  /** Where the payload of the value {@link #schemaOf} last gave a schema for starts. */
  static int payloadStart() {
    return ((byte[]) LAST.get()[0]).length;
  }

  /** Writes the payload of {@code value} (from {@code prefix}) as the datum of {@code schema}
   * into {@code out}; throws {@link AvroDatumSchema.Unsure} for a null payload and any value the
   * datum is not sure of. */
  static void encode(byte[] value, int prefix, AvroDatumSchema schema, AvroDatumSchema.Out out)
      throws IOException, AvroDatumSchema.Unsure {
    out.reset();
    try (JsonParser parser = FACTORY.createParser(value, prefix, value.length - 1 - prefix)) {
      JsonToken first = parser.nextToken();
      AvroDatumSchema.check(first != null && first != JsonToken.VALUE_NULL);
      if (schema.stream(parser, first, out) && parser.nextToken() == null) {
        return;
      }
    }
    // Fields out of the schema's order, missing or extra: the payload as a tree.
    JsonNode payload = MAPPER.readTree(value, prefix, value.length - 1 - prefix);
    out.reset();
    schema.write(payload, out);
  }

  /** Where the payload starts: after {@code {"schema":<schema object>,"payload":}; -1 if not. */
  private static int payloadStart(byte[] value) throws IOException {
    try (JsonParser parser = FACTORY.createParser(value)) {
      if (parser.nextToken() != JsonToken.START_OBJECT
          || parser.nextToken() != JsonToken.FIELD_NAME
          || parser.nextToken() != JsonToken.START_OBJECT) {
        return -1;
      }
      parser.skipChildren();
      long end = parser.currentLocation().getByteOffset();
      if (end <= HEAD.length || end + PAYLOAD.length >= value.length) {
        return -1;
      }
      int at = (int) end;
      for (int i = 0; i < PAYLOAD.length; i++) {
        if (value[at + i] != PAYLOAD[i]) {
          return -1;
        }
      }
      return at + PAYLOAD.length;
    }
  }

  private static AvroDatumSchema schema(byte[] value, int prefix) throws IOException {
    ByteBuffer key = ByteBuffer.wrap(value, 0, prefix);
    AvroDatumSchema known = SCHEMAS.get(key);
    if (known != null) {
      return known;
    }
    JsonNode node = MAPPER.readTree(value, HEAD.length, prefix - HEAD.length - PAYLOAD.length);
    AvroDatumSchema parsed;
    try {
      parsed = AvroDatumSchema.of(node).named(IDS.incrementAndGet());
    } catch (AvroDatumSchema.Unsure e) {
      parsed = UNSUPPORTED;
    }
    if (SCHEMAS.size() >= MAX_SCHEMAS) {
      SCHEMAS.clear();
    }
    AvroDatumSchema prior =
        SCHEMAS.putIfAbsent(ByteBuffer.wrap(Arrays.copyOf(value, prefix)), parsed);
    return prior != null ? prior : parsed;
  }

  private static boolean startsWith(byte[] value, byte[] head) {
    if (value.length < head.length) {
      return false;
    }
    for (int i = 0; i < head.length; i++) {
      if (value[i] != head[i]) {
        return false;
      }
    }
    return true;
  }
}
