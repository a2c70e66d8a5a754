package dev.cutover.app.cli;

/**
 * One connection setting as the command line resolved it, with where it came from: an option, an environment
 * variable, a saved profile, or Cutover's own default. Never a password: for the password, {@code value} says
 * where it is read from.
 *
 * <pre>{@code
 * new Setting("user", "ops", "$CUTOVER_USER")   // printed as: user      ops    (from $CUTOVER_USER)
 * }</pre>
 */
public record Setting(String name, String value, String source) {

  /** Where a value came from, in the words {@code check --verbose} prints. */
  static String option(String option) {
    return "option " + option;
  }

  static String environment(String variable) {
    return "$" + variable;
  }

  static String profile(String name) {
    return "profile " + name;
  }

  static final String BUILT_IN = "built-in";

  /** One aligned line: name, value, and where it came from. */
  public String line() {
    return String.format("  %-9s %s  (%s)", name, value, source.equals(BUILT_IN) ? "built-in default"
        : "from " + source);
  }
}
