package dev.cutover.engine.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text that the engine did not write (a spec's transform and rules) into code, quoted
 * text and comments, as ClickHouse reads them: {@code 'string'}, {@code "identifier"} and
 * {@code `identifier`} with backslash escapes and doubled quotes; heredoc strings {@code $$…$$} and
 * {@code $tag$…$tag$}; comments {@code -- …}, {@code # …}, {@code #! …} and {@code // …} to the end
 * of the line, and {@code /* … *}{@code /} blocks, which nest.
 *
 * <p>Placeholders and function calls count only in code: a {@code {window_start}} inside a string
 * literal or a comment binds nothing, and a {@code now()} in a comment calls nothing.
 */
public final class SqlLexer {

  /** What a piece of the text is. */
  public enum Kind {
    CODE("code"),
    STRING("a string literal"),
    QUOTED_IDENTIFIER("a quoted identifier"),
    HEREDOC("a heredoc string"),
    LINE_COMMENT("a comment"),
    BLOCK_COMMENT("a block comment");

    private final String words;

    Kind(String words) {
      this.words = words;
    }

    /** The kind as a sentence names it: "a string literal". */
    public String words() {
      return words;
    }

    public boolean comment() {
      return this == LINE_COMMENT || this == BLOCK_COMMENT;
    }
  }

  /**
   * One piece of the text, {@code [start, end)}. {@code closed} is false for a quote or block
   * comment that the text ends inside.
   */
  public record Token(Kind kind, int start, int end, boolean closed) {}

  private SqlLexer() {}

  public static List<Token> tokens(String sql) {
    List<Token> out = new ArrayList<>();
    int code = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      char next = i + 1 < n ? sql.charAt(i + 1) : 0;
      Token t = null;
      if (c == '\'' || c == '"' || c == '`') {
        t = quoted(sql, i, c);
      } else if (c == '$') {
        t = heredoc(sql, i);
      } else if ((c == '-' && next == '-') || (c == '/' && next == '/') || (c == '#' && (next == ' ' || next == '!'))) {
        int end = sql.indexOf('\n', i);
        t = new Token(Kind.LINE_COMMENT, i, end < 0 ? n : end, true);
      } else if (c == '/' && next == '*') {
        t = block(sql, i);
      }
      if (t == null) {
        i++;
        continue;
      }
      if (code < t.start()) {
        out.add(new Token(Kind.CODE, code, t.start(), true));
      }
      out.add(t);
      i = t.end();
      code = i;
    }
    if (code < n) {
      out.add(new Token(Kind.CODE, code, n, true));
    }
    return out;
  }

  private static Token quoted(String sql, int start, char quote) {
    Kind kind = quote == '\'' ? Kind.STRING : Kind.QUOTED_IDENTIFIER;
    for (int i = start + 1; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == quote) {
        // A doubled quote is an escaped one: the next token starts right here and is read the same way.
        return new Token(kind, start, i + 1, true);
      }
    }
    return new Token(kind, start, sql.length(), false);
  }

  /** {@code $$…$$} or {@code $tag$…$tag$}; null when the dollar sign starts no heredoc. */
  private static Token heredoc(String sql, int start) {
    int i = start + 1;
    while (i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')
        && sql.charAt(i) < 128) {
      i++;
    }
    if (i >= sql.length() || sql.charAt(i) != '$' || (i > start + 1 && Character.isDigit(sql.charAt(start + 1)))) {
      return null;
    }
    String tag = sql.substring(start, i + 1);
    int end = sql.indexOf(tag, i + 1);
    return end < 0 ? new Token(Kind.HEREDOC, start, sql.length(), false)
        : new Token(Kind.HEREDOC, start, end + tag.length(), true);
  }

  private static Token block(String sql, int start) {
    int depth = 0;
    int i = start;
    while (i < sql.length() - 1) {
      if (sql.charAt(i) == '/' && sql.charAt(i + 1) == '*') {
        depth++;
        i += 2;
      } else if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
        depth--;
        i += 2;
        if (depth == 0) {
          return new Token(Kind.BLOCK_COMMENT, start, i, true);
        }
      } else {
        i++;
      }
    }
    return new Token(Kind.BLOCK_COMMENT, start, sql.length(), false);
  }

  /** {@code line 3, column 12} of the character at {@code index}, both counted from 1. */
  public static String where(String sql, int index) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < index && i < sql.length(); i++) {
      if (sql.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return "line " + line + ", column " + (index - lineStart + 1);
  }
}
