package dev.cutover.engine.spec;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec.Allowance;
import dev.cutover.engine.sql.SqlLexer;
import dev.cutover.engine.sql.SqlLexer.Kind;
import dev.cutover.engine.sql.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a transform's text as ClickHouse will read it, before anything runs: one SELECT, closed
 * quotes and comments, placeholders only in code and only known ones, both window bounds used, no
 * {@code ;} and no {@code ?} (the engine binds its window as {@code ?} parameters), and no
 * non-deterministic function that the spec does not allow with a reason. Each refusal says where
 * (line and column of the transform) and never quotes the transform: a file named by mistake may
 * hold a secret.
 */
final class TransformCheck {

  static final String WINDOW_START = "{window_start:DateTime}";
  static final String WINDOW_END = "{window_end:DateTime}";
  /** {@code {name}} or {@code {name:Type}}, as ClickHouse writes query parameters. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(?::([^{}]*))?}");
  private static final Pattern FIRST_WORD = Pattern.compile("\\s*([A-Za-z_]+)");

  private final String origin;
  private final String field;
  private final String subject;
  private final String locus;
  private final String text;
  private final Set<String> sources;

  /**
   * @param file the transform's file as the spec names it, or null for a transform written in the spec
   */
  TransformCheck(String origin, String file, String text, Set<String> sources) {
    this(origin, "spec.transform", file == null ? "the transform" : "the transform file " + file,
        file == null ? "the transform" : file, text, sources);
  }

  /**
   * The check of a query other than the transform, under the same rules: {@code field} names it in the spec
   * ({@code spec.live_views[1].select}), {@code subject} and {@code locus} in sentences.
   */
  TransformCheck(String origin, String field, String subject, String locus, String text, Set<String> sources) {
    this.origin = origin;
    this.field = field;
    this.subject = subject;
    this.locus = locus;
    this.text = text;
    this.sources = sources;
  }

  /** The transform with {@code {window_start}} written {@code {window_start:DateTime}}, once it passes. */
  String check(List<Allowance> allowed) {
    List<Token> tokens = SqlLexer.tokens(text);
    StringBuilder normalized = new StringBuilder(text.length());
    boolean start = false;
    boolean end = false;
    boolean first = true;
    for (Token t : tokens) {
      String piece = text.substring(t.start(), t.end());
      if (!t.closed()) {
        throw refuse("opens " + t.kind().words() + " at " + at(t.start()) + " that never closes",
            "close it, or remove the stray " + (t.kind().comment() ? "comment opener" : "quote"));
      }
      if (t.kind() != Kind.CODE) {
        Matcher p = PLACEHOLDER.matcher(piece);
        while (p.find()) {
          if (known(p.group(1))) {
            throw refuse("has {" + p.group(1) + "} inside " + t.kind().words() + " at " + at(t.start() + p.start())
                + ", where it binds nothing", "write it outside quotes and comments (for example ts >= "
                + "{window_start}), or remove it");
          }
        }
        if (first && !t.kind().comment() && !piece.isBlank()) {
          throw notASelect(t.start());
        }
        normalized.append(piece);
        continue;
      }
      if (first && !piece.isBlank()) {
        Matcher w = FIRST_WORD.matcher(piece);
        String word = w.lookingAt() ? w.group(1).toLowerCase(Locale.ROOT) : "";
        if (!word.equals("select") && !word.equals("with")) {
          throw notASelect(t.start() + (piece.length() - piece.stripLeading().length()));
        }
        first = false;
      }
      for (int i = 0; i < piece.length(); i++) {
        char c = piece.charAt(i);
        if (c == ';') {
          throw refuse("has a ';' at " + at(t.start() + i), "expected exactly one query, with no ';' outside "
              + "quotes");
        }
        if (c == '?') {
          throw refuse("has a '?' at " + at(t.start() + i), "the engine binds the window as '?' parameters, so "
              + "write if(condition, a, b) instead of condition ? a : b");
        }
      }
      Matcher p = PLACEHOLDER.matcher(piece);
      int copied = 0;
      while (p.find()) {
        String name = p.group(1);
        String type = p.group(2) == null ? null : p.group(2).strip();
        boolean window = name.equals("window_start") || name.equals("window_end");
        if (!known(name) || (window && type != null && !type.equals("DateTime")) || (!window && type != null)) {
          String shown = name + (type == null ? "" : ":" + type);
          shown = shown.length() > 60 ? shown.substring(0, 57) + "..." : shown;
          throw refuse("names {" + shown + "} at " + at(t.start() + p.start()),
              "expected {window_start}, {window_end} or the name of a source " + sources
                  + " (it stands for that source's table)");
        }
        normalized.append(piece, copied, p.start());
        normalized.append(window ? "{" + name + ":DateTime}" : "{" + name + "}");
        copied = p.end();
        start |= name.equals("window_start");
        end |= name.equals("window_end");
      }
      normalized.append(piece, copied, piece.length());
    }
    if (first) {
      throw notASelect(0);
    }
    if (!start || !end) {
      throw refuse("never uses {" + (start ? "window_end" : "window_start") + "} outside quotes and comments",
          "expected a query that filters its sources to the hour window with {window_start} and {window_end} (the "
              + "engine binds both)");
    }
    checkDeterminism(allowed);
    return normalized.toString().strip();
  }

  private void checkDeterminism(List<Allowance> allowed) {
    List<Determinism.Call> calls = Determinism.calls(text, Determinism.REFUSED);
    for (Determinism.Call call : calls) {
      if (allowed.stream().noneMatch(a -> a.function().equals(call.function()))) {
        throw refuse("calls " + call.function() + "() at " + at(call.index()) + ", whose result changes from run to "
            + "run, so an hour computed again would not give the same rows", "compute from the sources and the hour "
            + "window instead (for example {window_start} for the hour), or, if the difference cannot reach v2's "
            + "rows, allow it with a reason under allow_nondeterministic (see docs/SPEC.md)");
      }
    }
    for (int i = 0; i < allowed.size(); i++) {
      Allowance a = allowed.get(i);
      if (calls.stream().noneMatch(c -> c.function().equals(a.function()))) {
        throw new InvalidInputException("spec.allow_nondeterministic", "In the spec " + origin + ", field "
            + "'allow_nondeterministic[" + i + "].function' is '" + a.function() + "'; expected a function "
            + "the transform calls (it does not call " + a.function() + "(), so remove the allowance).");
      }
    }
  }

  private boolean known(String name) {
    return name.equals("window_start") || name.equals("window_end") || sources.contains(name);
  }

  private String at(int index) {
    return SqlLexer.where(text, index) + " of " + locus;
  }

  private InvalidInputException notASelect(int index) {
    return refuse("does not start with SELECT or WITH (" + at(index) + ")", "expected a single SELECT (or WITH … "
        + "SELECT) query");
  }

  private InvalidInputException refuse(String what, String fix) {
    return new InvalidInputException(field, "In the spec " + origin + ", " + subject + " " + what + "; "
        + fix + ".");
  }
}
