package dev.cutover.engine.reconcile;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where a report turns a measure's value into text: as ClickHouse prints a value of the
 * measure's type, so that a reviewer can paste a figure from the report into a query and find it.
 *
 * <p>A reconciliation carries its totals and key values as {@code double}s, so a {@code Decimal(18, 4)}
 * value of -18.56 arrives as the nearest binary fraction, and v2 − v1 computed in binary prints as
 * -18.559999999999945. This class reads every value back as the shortest decimal that round-trips
 * ({@link BigDecimal#valueOf(double)}), subtracts decimals as decimals, and rounds to the type's scale:
 * {@code format(delta(1234.56, 1216.0, "Decimal(18, 4)"), "Decimal(18, 4)")} is {@code -18.56}. Values
 * that are already {@link BigDecimal} (or integers) are exact and pass through unchanged.
 *
 * <pre>{@code
 * MeasureFormat.format(-18.559999999999945, "Decimal(18, 2)"); // "-18.56"
 * MeasureFormat.format(1.5e21, "Float64");                     // "1.5e21"
 * }</pre>
 */
final class MeasureFormat {

  private static final Pattern DECIMAL = Pattern.compile("Decimal(?:\\(\\s*\\d+\\s*(?:,\\s*(\\d+)\\s*)?\\)"
      + "|(?:32|64|128|256)\\(\\s*(\\d+)\\s*\\))");
  private static final Pattern WRAPPER = Pattern.compile("^(?:Nullable|LowCardinality)\\((.*)\\)$");

  /** How values of a ClickHouse type are printed and subtracted. */
  enum Family {
    INTEGER,
    DECIMAL,
    FLOAT,
    /** The type is not known (a report made from a reconciliation alone): decimals, without rounding. */
    UNKNOWN
  }

  /** A measure's type as the report needs it: its family and, for decimals, its scale. */
  record Type(Family family, int scale) {

    static final Type UNKNOWN = new Type(Family.UNKNOWN, -1);

    /** Parses a ClickHouse type name such as {@code Decimal(18, 4)}, {@code Nullable(Float64)} or {@code UInt64}. */
    static Type of(String clickHouseType) {
      if (clickHouseType == null || clickHouseType.isBlank()) {
        return UNKNOWN;
      }
      String t = clickHouseType.strip();
      for (Matcher m = WRAPPER.matcher(t); m.matches(); m = WRAPPER.matcher(t)) {
        t = m.group(1).strip();
      }
      if (t.matches("U?Int(8|16|32|64|128|256)|Bool")) {
        return new Type(Family.INTEGER, 0);
      }
      Matcher decimal = DECIMAL.matcher(t);
      if (decimal.matches()) {
        String scale = decimal.group(1) != null ? decimal.group(1) : decimal.group(2);
        return new Type(Family.DECIMAL, scale == null ? 0 : Integer.parseInt(scale));
      }
      if (t.equals("Float32") || t.equals("Float64") || t.equals("BFloat16")) {
        return new Type(Family.FLOAT, -1);
      }
      return UNKNOWN;
    }
  }

  private MeasureFormat() {}

  /**
   * The text of one value of a measure of ClickHouse type {@code type} (empty when unknown), as
   * {@code SELECT toString(value)} would print it: decimals without trailing zeros, integers without a
   * fraction, floats in their shortest form; an absent value is empty.
   */
  static String format(Number value, String type) {
    if (value == null) {
      return "";
    }
    Type t = Type.of(type);
    return switch (t.family()) {
      case INTEGER -> exact(value).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
      case DECIMAL -> plain(exact(value).setScale(t.scale(), RoundingMode.HALF_EVEN));
      case FLOAT -> floating(value.doubleValue());
      case UNKNOWN -> isExact(value) ? plain(exact(value)) : floating(value.doubleValue());
    };
  }

  /**
   * v2 − v1 as ClickHouse computes it for the type: in binary for floats, exactly for integers,
   * decimals and values of unknown type. An absent value counts as zero.
   */
  static Number delta(Number v1, Number v2, String type) {
    Number a = v1 == null ? BigDecimal.ZERO : v1;
    Number b = v2 == null ? BigDecimal.ZERO : v2;
    if (Type.of(type).family() == Family.FLOAT) {
      return b.doubleValue() - a.doubleValue();
    }
    return exact(b).subtract(exact(a));
  }

  /** The sum of values, in binary for floats and exactly otherwise, as ClickHouse's {@code sum} would add them. */
  static Number sum(Iterable<? extends Number> values, String type) {
    if (Type.of(type).family() == Family.FLOAT) {
      double total = 0;
      for (Number v : values) {
        total += v == null ? 0 : v.doubleValue();
      }
      return total;
    }
    BigDecimal total = BigDecimal.ZERO;
    for (Number v : values) {
      total = v == null ? total : total.add(exact(v));
    }
    return total;
  }

  /**
   * Whether v1 and v2 differ: exactly at the type's precision for integers and decimals, and for floats
   * by more than the relative 1e-9 that the reconciliation allows a float without a stated tolerance.
   */
  static boolean differs(Number v1, Number v2, String type) {
    Type t = Type.of(type);
    if (t.family() == Family.FLOAT) {
      double a = v1 == null ? 0 : v1.doubleValue();
      double b = v2 == null ? 0 : v2.doubleValue();
      double allowed = Double.parseDouble(Rules.FLOAT_RELATIVE) * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
      return !(Math.abs(b - a) <= allowed);
    }
    BigDecimal d = exact(delta(v1, v2, type));
    return (t.family() == Family.DECIMAL ? d.setScale(t.scale(), RoundingMode.HALF_EVEN) : d).signum() != 0;
  }

  /**
   * The decimal a value stands for: itself when exact, else the shortest decimal that reads back as the
   * same double, which is the decimal that ClickHouse sent for any value of at most 15 significant digits.
   */
  static BigDecimal exact(Number value) {
    return switch (value) {
      case BigDecimal b -> b;
      case BigInteger i -> new BigDecimal(i);
      case Long l -> BigDecimal.valueOf(l);
      case Integer i -> BigDecimal.valueOf(i);
      case Short s -> BigDecimal.valueOf(s);
      case Byte b -> BigDecimal.valueOf(b);
      default -> {
        double d = value.doubleValue();
        yield Double.isFinite(d) ? BigDecimal.valueOf(d) : BigDecimal.ZERO;
      }
    };
  }

  private static boolean isExact(Number value) {
    return value instanceof BigDecimal || value instanceof BigInteger || value instanceof Long
        || value instanceof Integer || value instanceof Short || value instanceof Byte;
  }

  private static String plain(BigDecimal value) {
    return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
  }

  /**
   * A double in its shortest round-trip digits, written as ClickHouse writes floats: plainly while the
   * decimal exponent lies in [-6, 21), else as {@code 1.5e21} or {@code 1e-8}.
   */
  private static String floating(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0" : "0";
    }
    BigDecimal b = BigDecimal.valueOf(d).stripTrailingZeros();
    int exponent = b.precision() - b.scale() - 1;
    if (exponent >= -6 && exponent < 21) {
      return b.toPlainString();
    }
    String digits = b.unscaledValue().abs().toString();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return (b.signum() < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "") + Math.abs(exponent);
  }
}
