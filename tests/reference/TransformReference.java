import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Kafka's single message transforms on records read by Kafka's JsonConverter: one base64 JSON
 * case per input line, {"config": {"type": CLASS, KEY: VALUE...}, "schemas": BOOL, "value":
 * JSON}; one output line per case: "OK <topic> <base64 of the transformed value written back
 * by the converter>", "DROPPED", or "ERR <message>". The record: topic "topic", partition 0,
 * offset 42, timestamp 1700000000000 (CreateTime), no key, no headers.
 */
public class TransformReference {
  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String line;
    while ((line = in.readLine()) != null) {
      JsonNode test = mapper.readTree(Base64.getDecoder().decode(line));
      try {
        Map<String, Object> config = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = test.get("config").fields();
        while (fields.hasNext()) {
          Map.Entry<String, JsonNode> field = fields.next();
          config.put(field.getKey(), field.getValue().asText());
        }
        String type = (String) config.remove("type");
        Transformation<SinkRecord> transform =
            (Transformation<SinkRecord>) Class.forName(type).getDeclaredConstructor().newInstance();
        transform.configure(config);
        JsonConverter converter = new JsonConverter();
        converter.configure(
            Map.of("schemas.enable", test.get("schemas").asBoolean() ? "true" : "false"), false);
        byte[] value = mapper.writeValueAsBytes(test.get("value"));
        SchemaAndValue connect = converter.toConnectData("topic", value);
        SinkRecord record = new SinkRecord("topic", 0, null, null, connect.schema(),
            connect.value(), 42L, 1700000000000L, TimestampType.CREATE_TIME);
        SinkRecord result = transform.apply(record);
        if (result == null) {
          out.println("DROPPED");
          continue;
        }
        byte[] written = converter.fromConnectData(result.topic(), result.valueSchema(), result.value());
        out.println("OK " + result.topic() + " " + Base64.getEncoder().encodeToString(
            written == null ? "null".getBytes(StandardCharsets.UTF_8) : written));
      } catch (Exception e) {
        out.println("ERR " + e.getClass().getSimpleName() + ": "
            + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
    }
    out.flush();
  }
}
