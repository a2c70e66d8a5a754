package dev.cutover.engine.spec;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.sql.SqlText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Typed reads of one YAML mapping, with sentences that name the field, the value and what is expected. */
final class Fields {

  private final String origin;
  private final String prefix;
  private final Map<String, Object> map;

  Fields(String origin, String prefix, Map<String, Object> map) {
    this.origin = origin;
    this.prefix = prefix;
    this.map = map;
  }

  /** The spec file (or resource) these fields come from, as sentences name it. */
  String origin() {
    return origin;
  }

  String path(String key) {
    // A key is the spec's own text: an unknown one may be a pasted paragraph, so sentences show its start.
    String k = key.length() > 60 ? key.substring(0, 57) + "..." : key;
    return prefix.isEmpty() ? k : k.startsWith("[") ? prefix + k : prefix + "." + k;
  }

  Set<String> keys() {
    return map.keySet();
  }

  InvalidInputException error(String key, Object value, String expected) {
    return new InvalidInputException("spec." + path(key), "In the spec " + origin + ", field '" + path(key) + "' is "
        + describe(value) + "; expected " + expected + ".");
  }

  static String describe(Object value) {
    if (value == null) {
      return "missing";
    }
    if (value instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (value instanceof List<?> l && !l.isEmpty() && l.getFirst() instanceof Map<?, ?>) {
      return "a list of mappings";
    }
    String text = String.valueOf(value);
    return "'" + (text.length() > 60 ? text.substring(0, 57) + "..." : text) + "'";
  }

  /** The most items a list in a spec may hold; real ones hold a few dozen. */
  static final int MAX_ITEMS = 1_000;

  private void limit(String key, List<?> list) {
    if (list.size() > MAX_ITEMS) {
      throw new InvalidInputException("spec." + path(key), "In the spec " + origin + ", field '" + path(key)
          + "' is a list of " + list.size() + " items; expected at most " + MAX_ITEMS + ".");
    }
  }

  void allowOnly(Set<String> allowed) {
    for (String key : map.keySet()) {
      if (!allowed.contains(key)) {
        throw new InvalidInputException("spec." + path(key), "In the spec " + origin + ", field '" + path(key)
            + "' is not a known field; expected one of " + new TreeSet<>(allowed) + " (see docs/SPEC.md).");
      }
    }
  }

  private Object required(String key) {
    Object v = map.get(key);
    if (v == null) {
      throw error(key, null, "a value (see docs/SPEC.md)");
    }
    return v;
  }

  String text(String key) {
    Object v = required(key);
    if (!(v instanceof String s) || s.isBlank()) {
      throw error(key, v, "a non-empty text");
    }
    return s;
  }

  /** An SQL expression: one expression, no statement separator. */
  String expression(String key) {
    Object v = required(key);
    String s = v instanceof Number n ? n.toString() : v instanceof String str ? str.strip() : null;
    if (s == null || s.isEmpty() || SqlText.hasStatementSeparator(s)) {
      throw error(key, v, "one SQL expression such as -2 * v1.fees_usd, without ';'");
    }
    return s;
  }

  /** One expression or a list of them; none when the key is absent. */
  List<String> expressions(String key) {
    Object v = map.get(key);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> list)) {
      return List.of(expression(key));
    }
    if (list.isEmpty()) {
      throw error(key, v, "one SQL condition such as 'v2.clicks <= v1.clicks', or a list of them");
    }
    limit(key, list);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(new Fields(origin, path(key), Map.of("[" + i + "]", list.get(i))).expression("[" + i + "]"));
    }
    return out;
  }

  /**
   * The largest tolerance a spec may state. The reconciliation compares within a tolerance as a
   * decimal of at most 38 digits, beside a measure's own decimals; 1e15 is past any float sum that
   * still has fractions to tolerate (a Float64 near it holds nothing finer than an eighth).
   */
  static final java.math.BigDecimal MOST_TOLERANCE = new java.math.BigDecimal("1000000000000000");
  /** The finest decimal place a tolerance may name: with the 16 digits above, 34 of the 38. */
  static final int TOLERANCE_PLACES = 18;

  /** A tolerance: a number from 0 to {@link #MOST_TOLERANCE} with at most 18 decimal places, kept as written. */
  java.math.BigDecimal tolerance(String key) {
    Object v = required(key);
    String expected = "a number from 0 to 1000000000000000 (1e15) with at most " + TOLERANCE_PLACES + " decimal "
        + "places, such as 0.000001 (the reconciliation compares within it as a decimal of at most 38 digits)";
    if (!(v instanceof Number n) || Double.isNaN(n.doubleValue()) || Double.isInfinite(n.doubleValue())) {
      throw error(key, v, expected);
    }
    java.math.BigDecimal t = n instanceof Double || n instanceof Float ? java.math.BigDecimal.valueOf(n.doubleValue())
        : new java.math.BigDecimal(n.toString());
    if (t.signum() < 0 || t.compareTo(MOST_TOLERANCE) > 0 || t.stripTrailingZeros().scale() > TOLERANCE_PLACES) {
      throw error(key, v, expected);
    }
    return t;
  }

  /** An item of a list that holds names or mappings. */
  record Item(String path, String text, java.util.Optional<Fields> fields) {}

  List<Item> items(String key) {
    Object v = required(key);
    if (!(v instanceof List<?> list) || list.isEmpty()) {
      throw error(key, v, "a non-empty list of column names, such as [book, instrument]");
    }
    limit(key, list);
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String p = path(key) + "[" + i + "]";
      Object item = list.get(i);
      if (item instanceof String text) {
        out.add(new Item(p, text, java.util.Optional.empty()));
      } else if (item instanceof Map<?, ?>) {
        out.add(new Item(p, "", java.util.Optional.of(new Fields(origin, p, SpecLoader.asMap(origin, p, item)))));
      } else {
        throw error(key, v, "a list of column names, or of {name, tolerance} mappings");
      }
    }
    return out;
  }

  String optionalExpression(String key, String fallback) {
    return map.containsKey(key) ? expression(key) : fallback;
  }

  Identifier identifier(String key) {
    Object v = required(key);
    if (!(v instanceof String s)) {
      throw error(key, v, "a table or column name");
    }
    return Identifier.simple("spec field '" + path(key) + "'", s);
  }

  /** A non-empty list of non-blank texts, such as a command and its arguments. */
  List<String> texts(String key) {
    Object v = required(key);
    if (!(v instanceof List<?> list) || list.isEmpty()) {
      throw error(key, v, "a non-empty list of texts, the program first, such as [/usr/local/bin/notify, --channel, ops]");
    }
    limit(key, list);
    List<String> out = new ArrayList<>();
    for (Object item : list) {
      if (!(item instanceof String s) || s.isBlank() || s.indexOf('\0') >= 0) {
        throw error(key, v, "a list of non-empty texts, the program first");
      }
      out.add(s);
    }
    return out;
  }

  List<Identifier> identifiers(String key) {
    Object v = required(key);
    if (!(v instanceof List<?> list) || list.isEmpty()) {
      throw error(key, v, "a non-empty list of column names, such as [book, instrument]");
    }
    limit(key, list);
    List<Identifier> out = new ArrayList<>();
    Set<Identifier> seen = new java.util.HashSet<>();
    for (Object item : list) {
      if (!(item instanceof String s)) {
        throw error(key, v, "a list of column names");
      }
      Identifier id = Identifier.simple("spec field '" + path(key) + "'", s);
      if (!seen.add(id)) {
        throw error(key, v, "each column once");
      }
      out.add(id);
    }
    return out;
  }

  int integer(String key, int fallback, int min, int max) {
    return (int) longInteger(key, fallback, min, max);
  }

  long longInteger(String key, long fallback, long min, long max) {
    Object v = map.get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Integer || v instanceof Long || v instanceof java.math.BigInteger)) {
      throw error(key, v, "a whole number from " + min + " to " + max);
    }
    if (v instanceof java.math.BigInteger big && big.bitLength() > 63) {
      // longValue() would keep only the low bits: 18446744073709551619 is not 3.
      throw error(key, v, "a whole number from " + min + " to " + max);
    }
    long n = ((Number) v).longValue();
    if (n < min || n > max) {
      throw error(key, v, "a whole number from " + min + " to " + max);
    }
    return n;
  }

  double decimal(String key, double fallback, double min, double max) {
    Object v = map.get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Number n) || Double.isNaN(n.doubleValue()) || n.doubleValue() < min || n.doubleValue() > max) {
      throw error(key, v, "a number of at least " + min);
    }
    return n.doubleValue();
  }

  boolean isMapping(String key) {
    return map.get(key) instanceof Map<?, ?>;
  }

  /** A duration such as {@code 90s}, {@code 30m}, {@code 12h} or {@code 2d}. */
  java.time.Duration duration(String key, java.time.Duration fallback, java.time.Duration max) {
    Object v = map.get(key);
    if (v == null) {
      return fallback;
    }
    java.util.regex.Matcher m = v instanceof String text
        ? java.util.regex.Pattern.compile("(\\d{1,7})\\s*(s|m|h|d)").matcher(text.strip()) : null;
    if (m == null || !m.matches()) {
      throw error(key, v, "a duration such as 30m, 12h or 2d");
    }
    long n = Long.parseLong(m.group(1));
    java.time.Duration d = switch (m.group(2)) {
      case "s" -> java.time.Duration.ofSeconds(n);
      case "m" -> java.time.Duration.ofMinutes(n);
      case "h" -> java.time.Duration.ofHours(n);
      default -> java.time.Duration.ofDays(n);
    };
    if (d.compareTo(max) > 0) {
      throw error(key, v, "a duration of at most " + max.toDays() + " days");
    }
    return d;
  }

  Fields child(String key) {
    return new Fields(origin, path(key), SpecLoader.asMap(origin, path(key), required(key)));
  }

  Fields optionalChild(String key) {
    return map.containsKey(key) ? child(key) : new Fields(origin, path(key), Map.of());
  }

  List<Fields> list(String key) {
    Object v = required(key);
    return asList(key, v);
  }

  List<Fields> optionalList(String key) {
    Object v = map.get(key);
    return v == null ? List.of() : asList(key, v);
  }

  private List<Fields> asList(String key, Object v) {
    if (!(v instanceof List<?> list)) {
      throw error(key, v, "a list");
    }
    limit(key, list);
    List<Fields> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String p = path(key) + "[" + i + "]";
      out.add(new Fields(origin, p, SpecLoader.asMap(origin, p, list.get(i))));
    }
    return out;
  }
}
