package s3connect.jvm;

import java.io.IOException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;

/**
 * Where the payload of a JsonConverter envelope ({@code schemas.enable=true}) starts in the Kafka
 * value, when Arrow's JSON reader reads the payload's bytes as they are into the values s3connect's
 * ParquetFormat writes, and the number naming the envelope's schema (as {@link JsonAvroDatum}
 * numbers them). A Spark SQL function over the Kafka value column (s3connect's line path for
 * Parquet, s3connect.sink.parquet_payloads).
 *
 * <p>The payload is sure when {@link JsonAvroDatum} writes its datum (every value of exactly its
 * field's JSON kind, in range, strict JSON, bytes as base64 that reads back to itself), its schema
 * is a struct with no empty struct in it (Parquet has no empty groups) and maps only as its own
 * fields, of plain values (Arrow's JSON reader has no maps: the Python writer reads those fields
 * apart), and it is on one line (no line feed or carriage return between its tokens). Everything
 * else gives a null row and goes through the Python writer record by record.
 */
public final class JsonParquetPayload implements UDF1<byte[], Row> {
  private static final long serialVersionUID = 1L;
  private static final Row NONE = RowFactory.create(null, null);

  @Override
  public Row call(byte[] value) {
    try {
      return payload(value);
    } catch (IOException | AvroDatumSchema.Unsure e) {
      return NONE;
    }
  }

  static Row payload(byte[] value) throws IOException, AvroDatumSchema.Unsure {
    AvroDatumSchema schema = JsonAvroDatum.schemaOf(value);
    if (schema == null || !schema.parquetReadable()) {
      return NONE;
    }
    int start = JsonAvroDatum.payloadStart();
    for (int i = start; i < value.length; i++) {
      if (value[i] == '\n' || value[i] == '\r') {
        return NONE;
      }
    }
    JsonAvroDatum.encode(value, start, schema, JsonAvroDatum.OUT.get());
    return RowFactory.create(start, schema.id);
  }
}
