package dev.cutover.engine.api;

import java.util.regex.Pattern;

/**
 * A ClickHouse identifier (database, table or column name). Simple names pass as they are; any
 * other name is refused where it is a database or table name that Cutover would create, and quoted
 * with back-ticks, doubling any back-tick, where it only reads.
 *
 * <pre>{@code
 * Identifier.of("pnl_v2").quoted();         // `pnl_v2`
 * Identifier.of("odd`name").quoted();       // `odd``name`
 * }</pre>
 */
public record Identifier(String name) implements Comparable<Identifier> {

  private static final Pattern SIMPLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,205}");

  public Identifier {
    if (name == null || name.isEmpty() || name.length() > 206 || name.indexOf('\0') >= 0) {
      throw new InvalidInputException("identifier", "The name '" + name + "' is empty, too long or holds a NUL "
          + "character; give a name of 1 to 206 characters.");
    }
  }

  public static Identifier of(String name) {
    return new Identifier(name);
  }

  /** A name made only of ASCII letters, digits and underscores, not starting with a digit. */
  public static Identifier simple(String field, String name) {
    if (name == null || !SIMPLE.matcher(name).matches()) {
      // A name pasted by mistake can be a whole file: the sentence shows its start and its length.
      String shown = name == null || name.length() <= 80 ? "'" + name + "'"
          : "'" + name.substring(0, 60) + "...' (" + name.length() + " characters)";
      throw new InvalidInputException(field, "The name " + shown + " in " + field + " is not a simple name; "
          + "use ASCII letters, digits and underscores, starting with a letter or underscore.");
    }
    return new Identifier(name);
  }

  public boolean isSimple() {
    return SIMPLE.matcher(name).matches();
  }

  /** The name inside back-ticks, with every back-tick and backslash escaped. */
  public String quoted() {
    return "`" + name.replace("\\", "\\\\").replace("`", "``") + "`";
  }

  static void validateDatabaseName(String field, String name) {
    simple(field, name);
  }

  @Override
  public int compareTo(Identifier other) {
    return name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return name;
  }

  /** {@code names} for a sentence: {@code a}, {@code a and b}, {@code a, b and c}; empty when there are none. */
  public static java.util.Optional<String> named(java.util.List<Identifier> names) {
    if (names.isEmpty()) {
      return java.util.Optional.empty();
    }
    java.util.List<String> each = names.stream().map(Identifier::name).toList();
    return java.util.Optional.of(each.size() == 1 ? each.getFirst() : String.join(", ", each.subList(0,
        each.size() - 1)) + " and " + each.getLast());
  }
}
