package dev.cutover.engine.sql;

/** Small checks on SQL text that the engine did not write itself (a spec's transform and rules). */
public final class SqlText {

  private SqlText() {}

  /** Whether the text holds a ';' outside string literals, quoted identifiers and comments. */
  public static boolean hasStatementSeparator(String sql) {
    return statementSeparatorAt(sql) >= 0;
  }

  /** Where the first ';' outside string literals, quoted identifiers and comments is; -1 when there is none. */
  public static int statementSeparatorAt(String sql) {
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
        return i;
      }
    }
    return -1;
  }

  /**
   * The text without its comments: a line comment becomes the end of its line, a block comment one
   * space; string literals and quoted identifiers are kept as written. The JDBC driver's own reading
   * of a statement does not know comments, so an apostrophe in one ("the desk's book") would hide
   * every bound parameter after it.
   */
  public static String withoutComments(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        out.append(c);
        if (c == '\\' && i + 1 < sql.length()) {
          out.append(sql.charAt(++i));
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
        out.append(c);
      } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end - 1;
      } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 1;
        out.append(' ');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
