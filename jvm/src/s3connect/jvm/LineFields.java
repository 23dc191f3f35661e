package s3connect.jvm;

import java.util.List;

/**
 * The values of a FieldPartitioner's fields read from a line {@link JsonTranscoder} wrote (compact
 * JSON whose keys are plain ASCII), as a JSON array: the bytes Jackson writes for the list of
 * those values, since each is the same text inside the line.
 */
final class LineFields {
  private LineFields() {}

  /** The values at {@code paths} as a JSON array; null if one is missing or null. */
  static byte[] of(byte[] line, List<List<String>> paths) {
    int[] spans = new int[2 * paths.size()];
    int size = 1 + Math.max(1, paths.size());
    for (int i = 0; i < paths.size(); i++) {
      int at = 0;
      for (String key : paths.get(i)) {
        at = member(line, at, key);
        if (at < 0) {
          return null;
        }
      }
      if (line[at] == 'n') {
        return null; // a null field: a partition error, the Python writer's to report
      }
      spans[2 * i] = at;
      spans[2 * i + 1] = skip(line, at);
      size += spans[2 * i + 1] - at;
    }
    byte[] out = new byte[size];
    int len = 0;
    out[len++] = '[';
    for (int i = 0; i < paths.size(); i++) {
      if (i > 0) {
        out[len++] = ',';
      }
      System.arraycopy(line, spans[2 * i], out, len, spans[2 * i + 1] - spans[2 * i]);
      len += spans[2 * i + 1] - spans[2 * i];
    }
    out[len] = ']';
    return out;
  }

  /** Where the value of {@code key} starts in the object at {@code at}; -1 if none there. */
  private static int member(byte[] line, int at, String key) {
    if (line[at] != '{') {
      return -1;
    }
    int pos = at + 1;
    while (line[pos] == '"') {
      int start = pos + 1;
      int end = start;
      while (line[end] != '"') {
        end++; // keys are plain ASCII: no escapes
      }
      if (named(line, start, end, key)) {
        return end + 2; // after '":'
      }
      pos = skip(line, end + 2);
      if (line[pos] != ',') {
        return -1;
      }
      pos++;
    }
    return -1;
  }

  private static boolean named(byte[] line, int start, int end, String key) {
    if (end - start != key.length()) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      if (line[start + i] != key.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Where the value at {@code pos} ends. */
  private static int skip(byte[] line, int pos) {
    int depth = 0;
    do {
      byte b = line[pos++];
      if (b == '"') {
        while (line[pos] != '"') {
          pos += line[pos] == '\\' ? 2 : 1;
        }
        pos++;
      } else if (b == '{' || b == '[') {
        depth++;
      } else if (b == '}' || b == ']') {
        depth--;
      } else if (depth == 0) {
        while (pos < line.length && line[pos] != ',' && line[pos] != '}' && line[pos] != ']') {
          pos++;
        }
      }
    } while (depth > 0);
    return pos;
  }
}
