package s3connect.jvm;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Schemaless JSON as {@link JsonConverterLine} reads and writes it, in one pass of Jackson's
 * streaming parser and one of its generator instead of a JsonNode tree, a Connect value and
 * ObjectMapper's serializers: the same maps (HashMaps filled in the same order, so they iterate
 * alike), lists, longs, strings, booleans and nulls, and the same bytes written.
 *
 * <p>Where this cannot be sure of giving what JsonConverter gives, it asks JsonConverter: a value
 * that is blank or not JSON, an integer beyond a long (JsonConverter truncates it), a double that
 * is infinite or a zero with a sign or an exponent (JsonConverter reads floats as BigDecimal,
 * which has no negative zero and refuses huge exponents).
 */
public final class SchemalessJson {
  /** Kafka's JsonDeserializer allows leading zeros ("007"); every other default is Jackson's. */
  private static final JsonFactory READER =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS).build();
  /** ObjectMapper's own factory: its generators write as ObjectMapper does. */
  private static final JsonFactory WRITER = JsonConverterLine.MAPPER.getFactory();
  /** What {@link #parse} returns where JsonConverter must decide. */
  private static final Object UNSURE = new Object();

  private SchemalessJson() {}

  /**
   * The Connect value JsonConverter reads from {@code value}, or null (see JsonConverterLine).
   * Doubles read here come as their Java text ({@link NumberText}) and strings of plain ASCII as
   * their bytes in {@code value} ({@link AsciiText}), so neither is converted twice; the writer
   * and the field lookup take both.
   */
  static Object read(byte[] value) {
    if (value == null) {
      return null;
    }
    Object connect = stream(value);
    return connect == UNSURE ? JsonConverterLine.read(value) : connect;
  }

  /** The line of {@code value} as {@link JsonConverterLine} gives it, from this pass. */
  public static byte[] line(byte[] value) {
    Object connect = read(value);
    return connect == null ? null : write(connect);
  }

  /** Whether the streaming pass reads {@code value} without asking JsonConverter. */
  public static boolean streams(byte[] value) {
    return value != null && stream(value) != UNSURE;
  }

  private static Object stream(byte[] value) {
    try (JsonParser parser = READER.createParser(value)) {
      JsonToken first = parser.nextToken();
      return first == null ? UNSURE : parse(parser, first, value);
    } catch (IOException | RuntimeException e) {
      return UNSURE;
    }
  }

  private static Object parse(JsonParser parser, JsonToken token, byte[] value)
      throws IOException {
    switch (token.id()) {
      case JsonTokenId.ID_START_OBJECT:
        Map<String, Object> map = new HashMap<>();
        for (String key = parser.nextFieldName(); key != null; key = parser.nextFieldName()) {
          Object item = parse(parser, parser.nextToken(), value);
          if (item == UNSURE) {
            return UNSURE;
          }
          map.put(key, item);
        }
        return map;
      case JsonTokenId.ID_START_ARRAY:
        List<Object> list = new ArrayList<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; ) {
          Object item = parse(parser, next, value);
          if (item == UNSURE) {
            return UNSURE;
          }
          list.add(item);
          next = parser.nextToken();
        }
        return list;
      case JsonTokenId.ID_STRING:
        return text(parser, value);
      case JsonTokenId.ID_NUMBER_INT:
        boolean fits = parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
        return fits ? (Object) parser.getLongValue() : UNSURE;
      case JsonTokenId.ID_NUMBER_FLOAT:
        return floating(parser);
      case JsonTokenId.ID_TRUE:
        return Boolean.TRUE;
      case JsonTokenId.ID_FALSE:
        return Boolean.FALSE;
      case JsonTokenId.ID_NULL:
        return null;
      default:
        return UNSURE;
    }
  }

  /**
   * The string the parser is at: its bytes in {@code value} when they are printable ASCII without
   * a quote or a backslash (Jackson writes those as they are), else its decoded text.
   */
  private static Object text(JsonParser parser, byte[] value) throws IOException {
    long start = parser.currentLocation().getByteOffset(); // after the opening quote
    if (start > 0 && start < value.length && value[(int) start - 1] == '"') {
      int end = (int) start;
      while (end < value.length && value[end] >= 0x20 && value[end] != '"' && value[end] != '\\') {
        end++; // bytes from 0x80 are negative: not plain ASCII
      }
      if (end < value.length && value[end] == '"') {
        return new AsciiText(value, (int) start, end - (int) start);
      }
    }
    return parser.getText();
  }

  /** A float as JsonConverter's BigDecimal.doubleValue() gives it (both round correctly). */
  private static Object floating(JsonParser parser) throws IOException {
    double d = parser.getDoubleValue();
    if (d == 0) {
      String text = parser.getText();
      boolean plain = text.charAt(0) != '-' && text.indexOf('e') < 0 && text.indexOf('E') < 0;
      return plain ? new NumberText("0.0") : UNSURE;
    }
    String text = Double.isFinite(d) ? JavaDoubles.text(d) : null;
    return text == null ? UNSURE : new NumberText(text);
  }

  /** The bytes ObjectMapper writes for a Connect value {@link #read} gave; null if it cannot. */
  static byte[] write(Object connect) {
    try (ByteArrayBuilder bytes = new ByteArrayBuilder(1024)) {
      try (JsonGenerator generator = WRITER.createGenerator(bytes, JsonEncoding.UTF8)) {
        generate(generator, connect);
      }
      return bytes.toByteArray();
    } catch (IOException | RuntimeException e) {
      return null; // a value Jackson refuses to write
    }
  }

  private static void generate(JsonGenerator generator, Object value) throws IOException {
    if (value == null) {
      generator.writeNull();
    } else if (value instanceof String) {
      generator.writeString((String) value);
    } else if (value instanceof AsciiText) {
      AsciiText text = (AsciiText) value;
      generator.writeRawUTF8String(text.bytes, text.offset, text.length);
    } else if (value instanceof NumberText) {
      generator.writeNumber(((NumberText) value).text);
    } else if (value instanceof Map) {
      generator.writeStartObject();
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        generator.writeFieldName((String) entry.getKey());
        generate(generator, entry.getValue());
      }
      generator.writeEndObject();
    } else if (value instanceof List) {
      generator.writeStartArray();
      for (Object item : (List<?>) value) {
        generate(generator, item);
      }
      generator.writeEndArray();
    } else if (value instanceof Long) {
      generator.writeNumber(((Long) value).longValue());
    } else if (value instanceof Double) {
      generator.writeNumber(((Double) value).doubleValue());
    } else if (value instanceof Boolean) {
      generator.writeBoolean(((Boolean) value).booleanValue());
    } else {
      throw new IllegalArgumentException("not a schemaless Connect value: " + value.getClass());
    }
  }

  /** A double JsonConverter reads, as Double.toString gives it (what ObjectMapper writes). */
  static final class NumberText {
    final String text;

    NumberText(String text) {
      this.text = text;
    }
  }

  /** A string of printable ASCII without quotes or backslashes: its bytes in the value. */
  static final class AsciiText {
    final byte[] bytes;
    final int offset;
    final int length;

    AsciiText(byte[] bytes, int offset, int length) {
      this.bytes = bytes;
      this.offset = offset;
      this.length = length;
    }
  }
}
