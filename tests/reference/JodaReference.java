import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;
import org.joda.time.DateTime;
import org.joda.time.DateTimeZone;
import org.joda.time.format.DateTimeFormat;
import org.joda.time.format.DateTimeFormatter;
import org.joda.time.format.ISODateTimeFormat;

/**
 * Joda-Time as Confluent's storage-common uses it, one case per input line (tab-separated; TEXT is
 * base64 of UTF-8), one output line per case: "OK <base64 of the result>" or "ERR <exception
 * class>: <message>". The default zone is UTC (as on Confluent's images).
 *
 * <ul>
 *   <li>"F TEXT ZONE LOCALE MILLIS": DateTimeFormat.forPattern(TEXT).withZone(forID(ZONE))
 *       .withLocale(new Locale(LOCALE)).print(MILLIS).
 *   <li>"P TEXT DURATION ZONE LOCALE MILLIS": TimeBasedPartitioner's encoded partition of the
 *       timestamp MILLIS for path.format TEXT, partition.duration.ms DURATION and directory.delim
 *       "/" (the steps of its configure, init, getPartition and encodedPartitionForTimestamp).
 *   <li>"Z TEXT MILLIS": DateTimeZone.forID(TEXT): its getID() and getOffset(MILLIS), spaced.
 *   <li>"I TEXT": the RecordField extractor's timestamp of the string field TEXT (its
 *       extractTimestampFromString: whole digits as epoch millis, else
 *       ISODateTimeFormat.dateTimeParser().parseMillis), as epoch millis.
 * </ul>
 */
public class JodaReference {
  private static final Pattern DIGITS = Pattern.compile("-?[0-9]{1,19}");
  private static final String DELIM = "/";

  public static void main(String[] args) throws Exception {
    DateTimeZone.setDefault(DateTimeZone.UTC);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    DateTimeFormatter iso = ISODateTimeFormat.dateTimeParser();
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.split("\t", -1);
      try {
        String result;
        switch (f[0]) {
          case "F":
            result = DateTimeFormat.forPattern(text(f[1])).withZone(DateTimeZone.forID(f[2]))
                .withLocale(new Locale(f[3])).print(Long.parseLong(f[4]));
            break;
          case "P":
            result = partition(text(f[1]), Long.parseLong(f[2]), f[3], f[4], Long.parseLong(f[5]));
            break;
          case "Z":
            DateTimeZone zone = DateTimeZone.forID(text(f[1]));
            result = zone.getID() + " " + zone.getOffset(Long.parseLong(f[2]));
            break;
          case "I":
            result = Long.toString(stringTimestamp(iso, text(f[1])));
            break;
          default:
            throw new IllegalStateException("unknown case " + f[0]);
        }
        out.println("OK " + Base64.getEncoder().encodeToString(
            result.getBytes(StandardCharsets.UTF_8)));
      } catch (Exception e) {
        out.println("ERR " + e.getClass().getSimpleName() + ": "
            + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
    }
    out.flush();
  }

  private static String text(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }

  /** TimeBasedPartitioner: configure's checks, init's formatter, then encodePartition. */
  private static String partition(
      String pathFormat, long durationMs, String zoneId, String localeString, long timestamp) {
    if (durationMs < 0) {
      throw new IllegalArgumentException("Partition duration needs to be a positive.");
    }
    if (pathFormat.trim().isEmpty() || pathFormat.equals(DELIM)) {
      throw new IllegalArgumentException("Path format cannot be empty.");
    } else if (pathFormat.endsWith(DELIM)) {
      pathFormat = pathFormat.substring(0, pathFormat.length() - DELIM.length());
    }
    Locale locale = new Locale(localeString);
    DateTimeZone timeZone = DateTimeZone.forID(zoneId);
    DateTimeFormatter formatter =
        DateTimeFormat.forPattern(pathFormat).withZone(timeZone).withLocale(locale);
    // getPartition: local time, truncated (Java's division) to the duration, back to UTC.
    long local = timeZone.convertUTCToLocal(timestamp);
    long start = timeZone.convertLocalToUTC(local / durationMs * durationMs, false);
    // encodedPartitionForTimestamp: a DateTime in the default zone, printed by the formatter.
    return new DateTime(start).toString(formatter);
  }

  /** RecordField's extractTimestampFromString: whole digits that fit a long, else ISO. */
  private static long stringTimestamp(DateTimeFormatter parser, String value) {
    if (DIGITS.matcher(value).matches()) {
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        // too long for a long: an ISO string after all
      }
    }
    return parser.parseMillis(value);
  }
}
