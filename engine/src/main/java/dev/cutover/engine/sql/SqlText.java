package dev.cutover.engine.sql;

/** Small checks on SQL text that the engine did not write itself (a spec's transform and rules). */
public final class SqlText {

  private SqlText() {}

  /** Whether the text holds a ';' outside string literals, quoted identifiers and comments. */
  public static boolean hasStatementSeparator(String sql) {
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end;
      } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 1;
      } else if (c == ';') {
        return true;
      }
    }
    return false;
  }
}
