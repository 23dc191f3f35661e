import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.zip.GZIPOutputStream;

/**
 * The gzip bytes Confluent's S3 sink writes for s3.compression.type=gzip: its CompressionType.GZIP
 * wraps the part stream in a GZIPOutputStream(out, 8192) with the configured deflate level.
 * Args: level, then base64 chunks written one after another; prints the file in base64.
 */
public class GzipReference {
  public static void main(String[] args) throws Exception {
    final int level = Integer.parseInt(args[0]);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    GZIPOutputStream gzip = new GZIPOutputStream(bytes, 8192) {
      {
        def.setLevel(level);
      }
    };
    for (int i = 1; i < args.length; i++) {
      gzip.write(Base64.getDecoder().decode(args[i]));
    }
    gzip.close();
    System.out.println(Base64.getEncoder().encodeToString(bytes.toByteArray()));
  }
}
