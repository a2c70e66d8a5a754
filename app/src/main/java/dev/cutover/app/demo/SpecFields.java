package dev.cutover.app.demo;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One YAML mapping of a spec, read field by field. Every refusal names the spec, the field's path
 * ({@code throttle.workers}, {@code sources[1].table}) and what would be accepted.
 */
final class SpecFields {

  private static final Pattern COMPACT_DURATION = Pattern.compile("(\\d+)\\s*(s|m|h|d)");

  private final String origin;
  private final String path;
  private final Map<?, ?> map;

  private SpecFields(String origin, String path, Map<?, ?> map) {
    this.origin = origin;
    this.path = path;
    this.map = map;
  }

  static SpecFields root(String origin, Object document) {
    if (!(document instanceof Map<?, ?> map)) {
      throw new InvalidInputException("spec", "The spec " + origin + " is not a YAML mapping of fields; start it "
          + "with 'spec_version: 1' and the fields described in docs/SPEC.md.");
    }
    return new SpecFields(origin, "", map);
  }

  /** Refuses fields this mapping does not know, which catches misspelt names. */
  SpecFields only(String... known) {
    Set<String> allowed = Set.of(known);
    for (Object key : map.keySet()) {
      if (!allowed.contains(String.valueOf(key))) {
        throw refuse(String.valueOf(key), "is not a known field" + (path.isEmpty() ? "" : " of " + path)
            + "; the known ones are " + String.join(", ", new TreeSet<>(allowed)));
      }
    }
    return this;
  }

  boolean has(String key) {
    return map.containsKey(key) && map.get(key) != null;
  }

  String string(String key) {
    Object value = required(key);
    if (value instanceof Map || value instanceof List) {
      throw refuse(key, "must be a single value, not a " + (value instanceof Map ? "mapping" : "list"));
    }
    String text = String.valueOf(value).strip();
    if (text.isEmpty()) {
      throw refuse(key, "is empty");
    }
    return text;
  }

  String string(String key, String fallback) {
    return has(key) ? string(key) : fallback;
  }

  Identifier identifier(String key) {
    String name = string(key);
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]{0,205}")) {
      throw refuse(key, "is '" + name + "', which is not a simple name; use ASCII letters, digits and underscores, "
          + "starting with a letter or underscore");
    }
    return Identifier.of(name);
  }

  /** A table name, {@code table} or {@code database.table}; unqualified names are in {@code database}. */
  TableName table(String key, Identifier database) {
    String name = string(key);
    String[] parts = name.split("\\.", -1);
    String simple = "[A-Za-z_][A-Za-z0-9_]{0,205}";
    if (parts.length > 2 || !parts[parts.length - 1].matches(simple) || (parts.length == 2 && !parts[0].matches(simple))) {
      throw refuse(key, "is '" + name + "', which is not a table name; give table or database.table with simple names");
    }
    return parts.length == 2 ? new TableName(Identifier.of(parts[0]), Identifier.of(parts[1]))
        : new TableName(database, Identifier.of(parts[0]));
  }

  List<Identifier> identifiers(String key) {
    List<Identifier> names = new ArrayList<>();
    List<?> items = list(key);
    if (items.isEmpty()) {
      throw refuse(key, "is an empty list; name at least one column");
    }
    for (int i = 0; i < items.size(); i++) {
      String name = String.valueOf(items.get(i));
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]{0,205}")) {
        throw refuse(key + "[" + i + "]", "is '" + name + "', which is not a simple column name");
      }
      if (names.contains(Identifier.of(name))) {
        throw refuse(key, "names " + name + " twice");
      }
      names.add(Identifier.of(name));
    }
    return names;
  }

  int integer(String key, int fallback, int min, int max) {
    if (!has(key)) {
      return fallback;
    }
    Object value = map.get(key);
    if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < min
        || ((Number) value).longValue() > max) {
      throw refuse(key, "is '" + value + "', but must be a whole number from " + min + " to " + max);
    }
    return ((Number) value).intValue();
  }

  BigDecimal decimal(String key, BigDecimal fallback) {
    if (!has(key)) {
      return fallback;
    }
    Object value = map.get(key);
    BigDecimal number;
    try {
      number = new BigDecimal(String.valueOf(value).strip());
    } catch (NumberFormatException e) {
      throw refuse(key, "is '" + value + "', but must be a number such as 0.01");
    }
    if (number.signum() < 0) {
      throw refuse(key, "is " + value + ", but must not be negative");
    }
    return number;
  }

  /** A duration: {@code 30s}, {@code 10m}, {@code 2h}, {@code 7d}, or ISO-8601 such as {@code PT10M} or {@code P7D}. */
  Duration duration(String key, Duration fallback) {
    if (!has(key)) {
      return fallback;
    }
    String text = String.valueOf(map.get(key)).strip();
    Matcher compact = COMPACT_DURATION.matcher(text.toLowerCase(Locale.ROOT));
    try {
      if (compact.matches()) {
        long n = Long.parseLong(compact.group(1));
        return switch (compact.group(2)) {
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
      }
      Duration parsed = Duration.parse(text.toUpperCase(Locale.ROOT));
      if (!parsed.isNegative()) {
        return parsed;
      }
    } catch (RuntimeException e) {
      // refused below
    }
    throw refuse(key, "is '" + text + "', which is not a duration; write it as 30s, 10m, 2h, 7d or ISO-8601 (PT10M)");
  }

  List<?> list(String key) {
    Object value = required(key);
    if (!(value instanceof List<?> items)) {
      throw refuse(key, "must be a list (one '- item' per line, or [a, b])");
    }
    return items;
  }

  List<?> list(String key, List<?> fallback) {
    return has(key) ? list(key) : fallback;
  }

  SpecFields mapping(String key) {
    Object value = required(key);
    if (!(value instanceof Map<?, ?> inner)) {
      throw refuse(key, "must be a mapping of fields");
    }
    return new SpecFields(origin, at(key), inner);
  }

  /** The mapping at {@code key}, or an empty one so that every field takes its default. */
  SpecFields mappingOrEmpty(String key) {
    return has(key) ? mapping(key) : new SpecFields(origin, at(key), Map.of());
  }

  SpecFields item(String key, int index, Object item) {
    if (!(item instanceof Map<?, ?> inner)) {
      throw refuse(key + "[" + index + "]", "must be a mapping of fields");
    }
    return new SpecFields(origin, at(key) + "[" + index + "]", inner);
  }

  InvalidInputException refuse(String key, String problem) {
    String where = at(key);
    return new InvalidInputException("spec " + where, "In the spec " + origin + ", " + where + " " + problem
        + "; fix it and load the spec again (docs/SPEC.md describes every field).");
  }

  private Object required(String key) {
    if (!has(key)) {
      throw refuse(key, "is missing, and it is required");
    }
    return map.get(key);
  }

  private String at(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }
}
