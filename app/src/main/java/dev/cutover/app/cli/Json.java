package dev.cutover.app.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/** Renders maps, lists, strings, numbers, booleans, instants and durations as JSON, for --json. */
public final class Json {

  private Json() {}

  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value);
    return out.toString();
  }

  private static void write(StringBuilder out, Object value) {
    switch (value) {
      case null -> out.append("null");
      case Optional<?> o -> write(out, o.orElse(null));
      case Map<?, ?> map -> {
        out.append('{');
        boolean first = true;
        for (var e : map.entrySet()) {
          out.append(first ? "" : ", ");
          string(out, String.valueOf(e.getKey()));
          out.append(": ");
          write(out, e.getValue());
          first = false;
        }
        out.append('}');
      }
      case Collection<?> list -> {
        out.append('[');
        boolean first = true;
        for (Object item : list) {
          out.append(first ? "" : ", ");
          write(out, item);
          first = false;
        }
        out.append(']');
      }
      case Double d when d.isNaN() || d.isInfinite() -> out.append("null");
      case Number n -> out.append(n);
      case Boolean b -> out.append(b);
      case Duration d -> out.append(d.toMillis() / 1000.0);
      case Instant i -> string(out, i.toString());
      default -> string(out, value.toString());
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
