package s3connect.jvm;

import java.util.Arrays;

/**
 * A schemaless JSON value's line straight from its bytes, without Jackson: one scan that copies
 * what Jackson would write unchanged and rewrites the rest (numbers, escapes, the order of an
 * object's keys) as {@link SchemalessJson} and {@link JsonConverterLine} write it.
 *
 * <p>Only for values where that is certain; {@link #line} gives null for anything else, and the
 * caller takes the streaming pass: a value that is not one strict JSON document (up to blanks), a
 * root null, a control character, a byte that is not well-formed UTF-8, a key that is not plain
 * ASCII (or has an escape), a duplicate key, eight keys in one of a HashMap's 16 first bins, an
 * exponent, an integer of 19 digits or more, a float of 16 significant digits or more or outside
 * [0.001, 1e7), a negative zero float, nesting deeper than 64, a key over 1,000 bytes, a number
 * over 100, a value over 10 MB.
 *
 * <p>Why the rest is certain: JsonConverter reads objects into HashMaps in document order, so
 * with distinct keys and no tree bins they iterate by bin (the key's spread String hash masked
 * by the table size HashMap reaches) and, within a bin, in insertion order. It reads integers
 * into longs (leading zeros and a minus zero are gone) and floats correctly rounded to doubles; a
 * decimal of at most 15 significant digits is the only one that short in its double's rounding
 * interval (15-digit decimals are 1e-15 of their value apart, the interval 2^-52 wide), so it is
 * the shortest, and Java 19+ prints it, plainly between 0.001 and 1e7 ("100.0", "0.5"). Jackson
 * writes printable ASCII, {@code /} and well-formed UTF-8 as they are, but for characters beyond
 * U+FFFF, which it writes as two escaped surrogates ({@code \uD83D\uDE80}), and {@code \b \t \n
 * \f \r \" \\} as those escapes; a {@code \\uXXXX} escape it reads as the UTF-16 unit it names.
 */
public final class JsonTranscoder {
  private static final String HEX = "0123456789ABCDEF";
  private static final int MAX_DEPTH = 64;
  private static final int MAX_KEY = 1000;
  private static final int MAX_NUMBER = 100;
  /** Jackson refuses strings of 20,000,000 characters and more. */
  private static final int MAX_VALUE = 10_000_000;
  /** HashMap's default table size and the longest bin it keeps as a list. */
  private static final int FIRST_TABLE = 16;
  private static final int LIST_BIN = 8;

  private final byte[] in;
  private int pos;
  private byte[] out;
  private int len;
  private int depth;
  /** The members of the objects being read, innermost last: output spans, spread key hashes. */
  private int[] starts = new int[32];
  private int[] ends = new int[32];
  private int[] hashes = new int[32];
  private int[] keys = new int[32]; // each key's position in the value (after its quote)
  private int members;
  /** Scratch for reordering an object's members: their bins and indexes, and their bytes. */
  private long[] order = new long[16];
  private byte[] written = new byte[256];

  private JsonTranscoder(byte[] in) {
    this.in = in;
    this.out = new byte[in.length + 16];
  }

  /** The line of {@code value}; null where the streaming pass must decide. */
  public static byte[] line(byte[] value) {
    if (value == null || value.length == 0 || value.length > MAX_VALUE) {
      return null;
    }
    JsonTranscoder transcoder = new JsonTranscoder(value);
    return transcoder.root() ? Arrays.copyOf(transcoder.out, transcoder.len) : null;
  }

  private boolean root() {
    skipBlanks();
    if (pos >= in.length || in[pos] == 'n' || !value()) {
      return false; // a root null is a tombstone: not a line
    }
    skipBlanks();
    return pos == in.length;
  }

  private boolean value() {
    if (pos >= in.length) {
      return false;
    }
    switch (in[pos]) {
      case '{':
        return container((byte) '}', true);
      case '[':
        return container((byte) ']', false);
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }

  private boolean literal(String word) {
    int n = word.length();
    if (pos + n > in.length) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (in[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    copy(pos, pos + n);
    pos += n;
    return true; // what follows must be a separator: the container checks it
  }

  /**
   * The array or object at {@code pos}, closed by {@code close}: its values, or its members
   * (recorded, then put in HashMap order).
   */
  private boolean container(byte close, boolean object) {
    if (++depth > MAX_DEPTH) {
      return false;
    }
    put(in[pos++]);
    int first = members;
    skipBlanks();
    boolean empty = pos < in.length && in[pos] == close;
    if (empty) {
      pos++;
    }
    while (!empty) {
      if (!(object ? member() : value())) {
        return false;
      }
      skipBlanks();
      if (pos >= in.length) {
        return false;
      }
      byte next = in[pos++];
      if (next == close) {
        break;
      }
      if (next != ',') {
        return false;
      }
      put((byte) ',');
      skipBlanks();
    }
    if (object && !inHashMapOrder(first)) {
      return false;
    }
    members = first;
    put(close);
    depth--;
    return true;
  }

  /** One key and its value, recorded as a member of the innermost object. */
  private boolean member() {
    if (pos >= in.length || in[pos] != '"') {
      return false;
    }
    int key = ++pos;
    int hash = 0;
    while (pos < in.length && in[pos] >= 0x20 && in[pos] != '"' && in[pos] != '\\') {
      hash = 31 * hash + in[pos++]; // String.hashCode: ASCII bytes are its chars
    }
    if (pos >= in.length || in[pos] != '"' || pos - key > MAX_KEY) {
      return false;
    }
    int start = len;
    int keyEnd = ++pos;
    ensure(keyEnd - key + 1);
    System.arraycopy(in, key - 1, out, len, keyEnd - key + 1);
    len += keyEnd - key + 1;
    skipBlanks();
    if (pos >= in.length || in[pos++] != ':') {
      return false;
    }
    put((byte) ':');
    skipBlanks();
    int slot = members++;
    grow();
    if (!value()) {
      return false;
    }
    starts[slot] = start;
    ends[slot] = len;
    hashes[slot] = hash ^ (hash >>> 16); // HashMap's spread of it (one to one)
    keys[slot] = key;
    return true;
  }

  /**
   * Reorders the members from {@code first} in the output as a HashMap iterates them; false
   * where that order is not certain (a duplicate key, a bin that could become a tree).
   */
  private boolean inHashMapOrder(int first) {
    int n = members - first;
    if (n < 2) {
      return true;
    }
    int table = FIRST_TABLE;
    while (n > table * 3 / 4) {
      table *= 2;
    }
    if (order.length < n) {
      order = new long[Math.max(n, 2 * order.length)];
    }
    int[] firstBins = n >= LIST_BIN ? new int[FIRST_TABLE] : null;
    for (int i = 0; i < n; i++) {
      int h = hashes[first + i];
      order[i] = (long) (h & (table - 1)) << 32 | i; // bin, then insertion: a stable sort by bin
      if (firstBins != null && ++firstBins[h & (FIRST_TABLE - 1)] >= LIST_BIN) {
        return false;
      }
    }
    Arrays.sort(order, 0, n);
    boolean ordered = true;
    for (int i = 1; i < n; i++) {
      ordered &= (int) order[i] == i;
      for (int j = i - 1; j >= 0 && order[j] >>> 32 == order[i] >>> 32; j--) {
        int a = first + (int) order[i];
        int b = first + (int) order[j];
        if (hashes[a] == hashes[b] && sameKey(keys[a], keys[b])) {
          return false;
        }
      }
    }
    if (!ordered) {
      rewrite(first, n);
    }
    return true;
  }

  private boolean sameKey(int a, int b) {
    while (in[a] == in[b]) {
      if (in[a] == '"') {
        return true;
      }
      a++;
      b++;
    }
    return false;
  }

  /** Writes the {@code n} members from {@code first} again, in {@code order}, comma-separated. */
  private void rewrite(int first, int n) {
    int from = starts[first];
    if (written.length < len - from) {
      written = new byte[Math.max(len - from, 2 * written.length)];
    }
    System.arraycopy(out, from, written, 0, len - from);
    len = from;
    for (int i = 0; i < n; i++) {
      int m = first + (int) order[i];
      if (i > 0) {
        out[len++] = ',';
      }
      int size = ends[m] - starts[m];
      System.arraycopy(written, starts[m] - from, out, len, size);
      len += size;
    }
  }

  private boolean string() {
    pos++;
    put((byte) '"');
    while (true) {
      copyPlain();
      if (pos >= in.length) {
        return false;
      }
      byte b = in[pos];
      if (b == '"') {
        pos++;
        put((byte) '"');
        return true;
      }
      if (b == '\\' ? !escape() : b >= 0 || !utf8()) {
        return false; // a control character, a bad escape, or not well-formed UTF-8
      }
    }
  }

  /** Copies the printable ASCII (and DEL) from {@code pos} on, but quotes and backslashes. */
  private void copyPlain() {
    int end = pos;
    while (end < in.length && in[end] >= 0x20 && in[end] != '"' && in[end] != '\\') {
      end++;
    }
    copy(pos, end);
    pos = end;
  }

  /** The escape at {@code pos} as Jackson writes what it stands for. */
  private boolean escape() {
    if (pos + 1 >= in.length) {
      return false;
    }
    byte e = in[pos + 1];
    switch (e) {
      case '/':
        put((byte) '/');
        break;
      case '"':
      case '\\':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        put((byte) '\\');
        put(e);
        break;
      case 'u':
        return unicodeEscape();
      default:
        return false;
    }
    pos += 2;
    return true;
  }

  /**
   * A {@code \\uXXXX} escape at {@code pos} as Jackson writes the UTF-16 unit it stands for: a
   * control as {@code \\b \\t \\n \\f \\r} or {@code \\u00XX}, a quote or backslash escaped,
   * other ASCII as it is, a surrogate (paired or not) as {@code \\uXXXX} in upper case, the rest
   * as UTF-8.
   */
  private boolean unicodeEscape() {
    int unit = 0;
    for (int i = pos + 2; i < pos + 6; i++) {
      int digit = i < in.length ? Character.digit(in[i], 16) : -1;
      if (digit < 0) {
        return false;
      }
      unit = unit << 4 | digit;
    }
    pos += 6;
    if (unit < 0x20 || unit == '"' || unit == '\\') {
      int named = "\b\t\n\f\r\"\\".indexOf(unit);
      put((byte) '\\');
      if (named >= 0) {
        put((byte) "btnfr\"\\".charAt(named));
      } else {
        put((byte) 'u');
        put((byte) '0');
        put((byte) '0');
        put((byte) HEX.charAt(unit >>> 4));
        put((byte) HEX.charAt(unit & 0xF));
      }
    } else if (unit < 0x80) {
      put((byte) unit);
    } else if (unit < 0x800) {
      put((byte) (0xC0 | unit >>> 6));
      put((byte) (0x80 | unit & 0x3F));
    } else if (unit >= 0xD800 && unit <= 0xDFFF) {
      surrogate(unit);
    } else {
      put((byte) (0xE0 | unit >>> 12));
      put((byte) (0x80 | unit >>> 6 & 0x3F));
      put((byte) (0x80 | unit & 0x3F));
    }
    return true;
  }

  /** One well-formed UTF-8 sequence of 2 to 4 bytes at {@code pos}, as Jackson writes it. */
  private boolean utf8() {
    int b = in[pos] & 0xFF;
    int n;
    int low = 0x80;
    int high = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 3;
      low = b == 0xE0 ? 0xA0 : 0x80;
      high = b == 0xED ? 0x9F : 0xBF; // no surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 4;
      low = b == 0xF0 ? 0x90 : 0x80;
      high = b == 0xF4 ? 0x8F : 0xBF;
    } else {
      return false;
    }
    if (pos + n > in.length) {
      return false;
    }
    int second = in[pos + 1] & 0xFF;
    if (second < low || second > high) {
      return false;
    }
    for (int i = 2; i < n; i++) {
      int c = in[pos + i] & 0xFF;
      if (c < 0x80 || c > 0xBF) {
        return false;
      }
    }
    if (n == 4) {
      int point = (b & 0x07) << 18 | (second & 0x3F) << 12 | (in[pos + 2] & 0x3F) << 6
          | (in[pos + 3] & 0x3F);
      surrogate(0xD800 + ((point - 0x10000) >>> 10));
      surrogate(0xDC00 + ((point - 0x10000) & 0x3FF));
    } else {
      copy(pos, pos + n);
    }
    pos += n;
    return true;
  }

  /** A UTF-16 surrogate as Jackson's UTF-8 generator writes it: an escape, upper-case hex. */
  private void surrogate(int unit) {
    ensure(6);
    out[len++] = '\\';
    out[len++] = 'u';
    for (int shift = 12; shift >= 0; shift -= 4) {
      out[len++] = (byte) HEX.charAt(unit >>> shift & 0xF);
    }
  }

  /** An integer as its long prints, a float as Java 19+ prints its double (see the class). */
  private boolean number() {
    int start = pos;
    boolean negative = in[pos] == '-';
    if (negative) {
      pos++;
    }
    int whole = pos;
    while (pos < in.length && in[pos] >= '0' && in[pos] <= '9') {
      pos++;
    }
    int wholeEnd = pos;
    int fraction = -1;
    if (pos < in.length && in[pos] == '.') {
      fraction = ++pos;
      while (pos < in.length && in[pos] >= '0' && in[pos] <= '9') {
        pos++;
      }
    }
    boolean exponent = pos < in.length && (in[pos] == 'e' || in[pos] == 'E');
    if (wholeEnd == whole || fraction == pos || exponent || pos - start > MAX_NUMBER) {
      return false;
    }
    while (whole < wholeEnd && in[whole] == '0') {
      whole++; // leading zeros (Kafka's reader allows them)
    }
    return fraction < 0
        ? integer(negative, whole, wholeEnd)
        : decimal(negative, whole, wholeEnd, fraction, pos);
  }

  private boolean integer(boolean negative, int digits, int end) {
    if (end - digits > 18) {
      return false; // maybe beyond a long: JsonConverter truncates
    }
    if (digits == end) {
      put((byte) '0'); // -0 is the long 0
      return true;
    }
    if (negative) {
      put((byte) '-');
    }
    copy(digits, end);
    return true;
  }

  private boolean decimal(boolean negative, int whole, int wholeEnd, int fraction, int end) {
    while (end > fraction && in[end - 1] == '0') {
      end--;
    }
    if (whole == wholeEnd && fraction == end) {
      if (negative) {
        return false; // -0.0: JsonConverter's BigDecimal has no negative zero
      }
      put((byte) '0');
      put((byte) '.');
      put((byte) '0');
      return true;
    }
    int zeros = 0;
    while (whole == wholeEnd && fraction + zeros < end && in[fraction + zeros] == '0') {
      zeros++;
    }
    int significant = whole < wholeEnd ? wholeEnd - whole + end - fraction : end - fraction - zeros;
    if (whole < wholeEnd && fraction == end) {
      significant = wholeEnd - whole;
      for (int i = wholeEnd - 1; in[i] == '0'; i--) {
        significant--;
      }
    }
    if (significant > 15 || wholeEnd - whole > 7 || zeros > 2) {
      return false; // maybe not the shortest, or printed in E notation
    }
    if (negative) {
      put((byte) '-');
    }
    if (whole == wholeEnd) {
      put((byte) '0');
    } else {
      copy(whole, wholeEnd);
    }
    put((byte) '.');
    if (fraction == end) {
      put((byte) '0');
    } else {
      copy(fraction, end);
    }
    return true;
  }

  private void skipBlanks() {
    while (pos < in.length) {
      byte b = in[pos];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return;
      }
      pos++;
    }
  }

  private void copy(int from, int to) {
    ensure(to - from);
    System.arraycopy(in, from, out, len, to - from);
    len += to - from;
  }

  private void put(byte b) {
    ensure(1);
    out[len++] = b;
  }

  private void ensure(int more) {
    if (len + more > out.length) {
      out = Arrays.copyOf(out, Math.max(out.length * 2, len + more));
    }
  }

  private void grow() {
    if (members > starts.length) {
      int size = starts.length * 2;
      starts = Arrays.copyOf(starts, size);
      ends = Arrays.copyOf(ends, size);
      hashes = Arrays.copyOf(hashes, size);
      keys = Arrays.copyOf(keys, size);
    }
  }
}
