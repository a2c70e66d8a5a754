package dev.cutover.engine.sql;

import dev.cutover.engine.sql.SqlLexer.Kind;
import dev.cutover.engine.sql.SqlLexer.Token;

/** Small checks on SQL text that the engine did not write itself (a spec's transform and rules). */
public final class SqlText {

  private SqlText() {}

  /** Whether the text holds a ';' outside string literals, quoted identifiers and comments. */
  public static boolean hasStatementSeparator(String sql) {
    return statementSeparatorAt(sql) >= 0;
  }

  /** Where the first ';' outside string literals, quoted identifiers and comments is; -1 when there is none. */
  public static int statementSeparatorAt(String sql) {
    for (Token t : SqlLexer.tokens(sql)) {
      int at = t.kind() == Kind.CODE ? sql.substring(t.start(), t.end()).indexOf(';') : -1;
      if (at >= 0) {
        return t.start() + at;
      }
    }
    return -1;
  }

  /**
   * The text without its comments: a line comment becomes the end of its line, a block comment one
   * space; string literals and quoted identifiers are kept as written, and a heredoc string becomes
   * the same text in single quotes. The JDBC driver's own reading of a statement knows neither
   * comments nor heredocs, so an apostrophe in one ("the desk's book") would hide every bound
   * parameter after it.
   */
  public static String withoutComments(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    for (Token t : SqlLexer.tokens(sql)) {
      switch (t.kind()) {
        case LINE_COMMENT -> { }
        case BLOCK_COMMENT -> out.append(' ');
        case HEREDOC -> out.append(heredocAsString(sql.substring(t.start(), t.end())));
        default -> out.append(sql, t.start(), t.end());
      }
    }
    return out.toString();
  }

  /** {@code $tag$it's$tag$} as {@code 'it\'s'}: the same value, in the quotes every reader knows. */
  public static String heredocAsString(String heredoc) {
    int tag = heredoc.indexOf('$', 1) + 1;
    String body = heredoc.substring(tag, Math.max(tag, heredoc.length() - tag));
    return "'" + body.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** How many '?' the text holds outside quotes and comments: the parameters a driver binds. */
  public static int parameterMarks(String sql) {
    int marks = 0;
    for (Token t : SqlLexer.tokens(sql)) {
      if (t.kind() == Kind.CODE) {
        for (int i = t.start(); i < t.end(); i++) {
          if (sql.charAt(i) == '?') {
            marks++;
          }
        }
      }
    }
    return marks;
  }
}
