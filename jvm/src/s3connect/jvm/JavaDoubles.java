package s3connect.jvm;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * Whether this JVM prints a double as Java 19 and later do. Before 19, Double.toString gives a
 * longer decimal than needed for some doubles (JDK-4511638); s3connect writes what current Java
 * writes, so the line functions leave such values to the Python writer.
 */
final class JavaDoubles {
  static final boolean SHORTEST = Runtime.version().feature() >= 19;

  private JavaDoubles() {}

  /** Whether every double in a Connect value JsonConverter read prints as Java 19+ prints it. */
  static boolean allAsCurrentJava(Object node) {
    if (node instanceof Double) {
      return asCurrentJava((Double) node);
    }
    if (node instanceof Map) {
      for (Object item : ((Map<?, ?>) node).values()) {
        if (!allAsCurrentJava(item)) {
          return false;
        }
      }
    } else if (node instanceof List) {
      for (Object item : (List<?>) node) {
        if (!allAsCurrentJava(item)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether Double.toString(d) here gives the digits Java 19+ gives. */
  static boolean asCurrentJava(double d) {
    return SHORTEST || printsShortest(d, Double.toString(d));
  }

  /** Double.toString(d) where it gives what Java 19+ gives; null where it does not. */
  static String text(double d) {
    String text = Double.toString(d);
    return SHORTEST || printsShortest(d, text) ? text : null;
  }

  /**
   * Whether Double.toString(d) gives the digits of Java 19+: the shortest decimal that reads
   * back as d, the nearest of those; two digits when it has one and the nearest two-digit decimal
   * reads back too (4.9E-324). False also where this cannot tell (then the caller falls back).
   * {@code text} is Double.toString(d).
   */
  static boolean printsShortest(double d, String text) {
    if (d == 0 || !Double.isFinite(d)) {
      return true;
    }
    int digits = significantDigits(text);
    if (digits <= 15 && Math.abs(d) >= Double.MIN_NORMAL) {
      // Decimals of at most 15 digits are at least 1e-15 of their value apart, normal doubles at
      // most 2^-52 of theirs (DBL_DIG): no other decimal of at most 15 digits reads back as d, so
      // this one is the shortest and the nearest (also among two-digit ones), as Java 19+ prints.
      return true;
    }
    BigDecimal shown = new BigDecimal(text);
    BigDecimal exact = new BigDecimal(d);
    BigDecimal shortest = digits > 1 ? nearestReadingBack(exact, d, digits - 1) : null;
    if (shortest == null) {
      shortest = nearestReadingBack(exact, d, digits);
    }
    if (shortest == null) {
      return false;
    }
    if (shortest.stripTrailingZeros().precision() == 1) {
      BigDecimal two = exact.round(new MathContext(2, RoundingMode.HALF_EVEN));
      if (two.doubleValue() == d) {
        shortest = two;
      }
    }
    return shortest.compareTo(shown) == 0;
  }

  /** The significant digits of Double.toString's text ("1.25E-7", "0.001", "120.0"). */
  static int significantDigits(String text) {
    int first = -1;
    int last = -1;
    int position = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 'E') {
        break;
      }
      if (c >= '0' && c <= '9') {
        if (c != '0') {
          first = first < 0 ? position : first;
          last = position;
        }
        position++;
      }
    }
    return first < 0 ? 1 : last - first + 1;
  }

  /** The p-digit decimal nearest to d that reads back as d; null if none (or a tie). */
  private static BigDecimal nearestReadingBack(BigDecimal exact, double d, int p) {
    BigDecimal below = exact.round(new MathContext(p, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(p, RoundingMode.CEILING));
    boolean belowReads = below.doubleValue() == d;
    boolean aboveReads = above.doubleValue() == d;
    if (belowReads && aboveReads && below.compareTo(above) != 0) {
      int closer = exact.subtract(below).compareTo(above.subtract(exact));
      return closer < 0 ? below : closer > 0 ? above : null;
    }
    return belowReads ? below : aboveReads ? above : null;
  }
}
