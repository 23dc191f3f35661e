import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Kafka's JsonConverter and Confluent's JsonRecordWriterProvider on each value: one base64 value
 * per input line ("-" for null); one output line per value: "OK <base64 of the written line>" or
 * "ERR <the converter's message>". Args: key=value pairs for the record's converter
 * (schemas.enable defaults to false); "format.KEY=VALUE" for JsonFormat's own converter
 * (schemas.enable=false, as Confluent configures it; e.g. format.decimal.format=NUMERIC).
 * "mode=converter": write each value back with the record's converter instead (what the S3
 * source publishes with that converter), without a line separator.
 */
public class JsonFormatReference {
  public static void main(String[] args) throws Exception {
    Map<String, Object> config = new java.util.HashMap<>();
    Map<String, Object> formatConfig = new java.util.HashMap<>();
    config.put("schemas.enable", "false");
    formatConfig.put("schemas.enable", "false");
    boolean converterMode = false;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      if (kv[0].equals("mode")) {
        converterMode = kv[1].equals("converter");
      } else if (kv[0].startsWith("format.")) {
        formatConfig.put(kv[0].substring("format.".length()), kv[1]);
      } else {
        config.put(kv[0], kv[1]);
      }
    }
    JsonConverter converter = new JsonConverter();
    converter.configure(config, false);
    JsonConverter format = new JsonConverter();
    format.configure(formatConfig, false);
    ObjectMapper mapper = new ObjectMapper();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String line;
    while ((line = in.readLine()) != null) {
      byte[] value = line.equals("-") ? null : Base64.getDecoder().decode(line);
      try {
        SchemaAndValue connect = converter.toConnectData("topic", value);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JsonGenerator writer = mapper.getFactory().createGenerator(bytes).setRootValueSeparator(null);
        if (converterMode) {
          writer.flush();
          byte[] written = converter.fromConnectData("topic", connect.schema(), connect.value());
          bytes.write(written == null ? "null".getBytes(StandardCharsets.UTF_8) : written);
        } else if (connect.value() instanceof Struct) {
          writer.flush();
          bytes.write(format.fromConnectData("topic", connect.schema(), connect.value()));
          bytes.write('\n');
        } else {
          writer.writeObject(connect.value());
          writer.writeRaw("\n");
        }
        writer.flush();
        out.println("OK " + Base64.getEncoder().encodeToString(bytes.toByteArray()));
      } catch (Exception e) {
        out.println("ERR " + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
    }
    out.flush();
  }
}
