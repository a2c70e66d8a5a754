package dev.cutover.app.demo;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Statement;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SQL text with named placeholders: a lower-case name in braces, such as {@code {trades}} or
 * {@code {window_start}}. Rendering replaces each one by what it names:
 *
 * <ul>
 *   <li>a {@link TableName}: the quoted, qualified table name, written into the text;
 *   <li>an {@link Instant}: {@code toDateTime(?, 'UTC')}, bound to its epoch second;
 *   <li>a number or a string: {@code ?}, bound to the value.
 * </ul>
 *
 * <p>Comments are removed and string literals are left alone, so a brace or a question mark inside
 * them means nothing. ClickHouse's own {@code {name:Type}} parameters have a colon and are not
 * placeholders here.
 *
 * <pre>{@code
 * SqlTemplate.of("hour", "SELECT count() FROM {trades} WHERE event_time >= {from}")
 *     .render(Map.of("trades", tradesTable, "from", Instant.parse("2026-11-29T10:00:00Z")));
 * // SELECT count() FROM `trading`.`trades` WHERE event_time >= toDateTime(?, 'UTC')   [1795946400]
 * }</pre>
 */
public record SqlTemplate(String name, String text) {

  private static final String RESOURCE_FOLDER = "/dev/cutover/app/demo/";

  public static SqlTemplate of(String name, String text) {
    return new SqlTemplate(name, text);
  }

  /** A template shipped with the demo, e.g. {@code pnl_v2.sql}. */
  public static SqlTemplate resource(String file) {
    try (InputStream in = SqlTemplate.class.getResourceAsStream(RESOURCE_FOLDER + file)) {
      if (in == null) {
        throw new IllegalStateException("The demo resource " + file + " is missing from the application");
      }
      return new SqlTemplate(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The placeholder names the text uses, in order of first use. */
  public Set<String> placeholders() {
    Set<String> names = new LinkedHashSet<>();
    scan(name -> {
      names.add(name);
      return "";
    }, new StringBuilder());
    return names;
  }

  /** Replaces every placeholder; refuses a placeholder that {@code values} does not name. */
  public Statement render(Map<String, ?> values) {
    List<Object> params = new ArrayList<>();
    StringBuilder out = new StringBuilder(text.length());
    scan(placeholder -> {
      if (!values.containsKey(placeholder)) {
        throw new InvalidInputException(name, "The SQL in " + name + " uses {" + placeholder + "}, which is "
            + "neither a source nor a bound value here (known: " + String.join(", ", values.keySet())
            + "); rename it to one of those.");
      }
      Object value = values.get(placeholder);
      return switch (value) {
        case TableName table -> table.sql();
        case Instant instant -> {
          params.add(instant.getEpochSecond());
          yield "toDateTime(?, 'UTC')";
        }
        case Number number -> {
          params.add(number);
          yield "?";
        }
        case String string -> {
          params.add(string);
          yield "?";
        }
        default -> throw new IllegalArgumentException("cannot bind " + value.getClass());
      };
    }, out);
    return new Statement(out.toString().strip(), params);
  }

  /** Splits a script into statements at semicolons that end a line (outside literals and comments). */
  public List<String> statements() {
    List<String> statements = new ArrayList<>();
    StringBuilder out = new StringBuilder();
    scan(placeholder -> "{" + placeholder + "}", out);
    for (String part : out.toString().split(";\\s*(\\n|$)")) {
      if (!part.isBlank()) {
        statements.add(part.strip());
      }
    }
    return statements;
  }

  private interface Replacer {
    String replace(String placeholder);
  }

  private void scan(Replacer replacer, StringBuilder out) {
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
        while (i < n && text.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        out.append(' ');
      } else if (c == '\'' || c == '"' || c == '`') {
        int start = i++;
        while (i < n && text.charAt(i) != c) {
          i += text.charAt(i) == '\\' ? 2 : 1;
        }
        i = Math.min(i + 1, n);
        out.append(text, start, i);
      } else if (c == '{' && placeholderEnd(i) > 0) {
        int end = placeholderEnd(i);
        out.append(replacer.replace(text.substring(i + 1, end)));
        i = end + 1;
      } else {
        out.append(c);
        i++;
      }
    }
  }

  /** The index of the closing brace of a placeholder starting at {@code open}, or -1. */
  private int placeholderEnd(int open) {
    int i = open + 1;
    if (i >= text.length() || !isStart(text.charAt(i))) {
      return -1;
    }
    while (i < text.length() && isPart(text.charAt(i))) {
      i++;
    }
    return i < text.length() && text.charAt(i) == '}' ? i : -1;
  }

  private static boolean isStart(char c) {
    return (c >= 'a' && c <= 'z') || c == '_';
  }

  private static boolean isPart(char c) {
    return isStart(c) || (c >= '0' && c <= '9');
  }
}
