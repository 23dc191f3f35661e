package s3connect.jvm;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF2;

/**
 * A Kafka value's JSON line (as {@link SchemalessJsonLine}) and the values of the fields the
 * FieldPartitioner partitions it by: a struct of the line and a JSON array of those values, as
 * Jackson writes what JsonConverter read (read from the line where {@link JsonTranscoder} wrote
 * it: {@link LineFields}). The field names come as a JSON array of key paths
 * (s3connect.sink.lines splits the names as Confluent's DataUtils does); the Python writer turns
 * each distinct array into the encoded partition.
 *
 * <p>Both are null wherever the Python writer must decide: where the line is null, and where the
 * value is not an object or a field is missing or null (a partition error there).
 */
public final class SchemalessJsonFieldLine implements UDF2<byte[], String, Row> {
  private static final long serialVersionUID = 1L;
  private static final Row NONE = RowFactory.create(null, null);

  private transient String pathsText;
  private transient List<List<String>> paths;

  @Override
  public Row call(byte[] value, String fieldPaths) {
    try {
      byte[] line = JsonTranscoder.line(value);
      if (line != null) {
        return row(line, LineFields.of(line, paths(fieldPaths)));
      }
      Object connect = SchemalessJson.read(value);
      byte[] fields = connect == null ? null : fields(connect, paths(fieldPaths));
      return fields == null ? NONE : row(SchemalessJson.write(connect), fields);
    } catch (Exception e) {
      return NONE;
    }
  }

  private static Row row(byte[] line, byte[] fields) {
    return line == null || fields == null ? NONE : RowFactory.create(line, fields);
  }

  private List<List<String>> paths(String text) throws Exception {
    if (!text.equals(pathsText)) {
      paths = JsonConverterLine.MAPPER.readValue(text, new TypeReference<List<List<String>>>() {});
      pathsText = text;
    }
    return paths;
  }

  /** The values at {@code paths} in {@code connect} as a JSON array; null if one is not there. */
  static byte[] fields(Object connect, List<List<String>> paths) {
    List<Object> values = new ArrayList<>(paths.size());
    for (List<String> path : paths) {
      Object current = connect;
      for (String key : path) {
        current = current instanceof Map ? ((Map<?, ?>) current).get(key) : null;
        if (current == null) {
          return null;
        }
      }
      values.add(current);
    }
    return SchemalessJson.write(values);
  }
}
