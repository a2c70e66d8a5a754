package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.sql.Sql;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The DDL of Cutover's own tables, kept as SQL resources beside this class so that it reads as the
 * schema it is. A script is statements ending in {@code ;}, each after a {@code -- step: …} line that
 * completes the sentence "Could not …" when it fails; other {@code --} lines are comments.
 * {@code {db}} stands for the working database, quoted.
 */
public final class SchemaScript {

  /** One statement of a script and what it does, in words. */
  record Step(String what, String text) {}

  private final List<Step> steps;

  private SchemaScript(List<Step> steps) {
    this.steps = List.copyOf(steps);
  }

  /** Reads {@code name} (for example {@code state-tables.sql}) from this package's resources. */
  public static SchemaScript resource(String name) {
    try (InputStream in = SchemaScript.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The schema script " + name + " is missing from the engine's resources");
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static SchemaScript parse(String script) {
    List<Step> steps = new ArrayList<>();
    String what = null;
    StringBuilder text = new StringBuilder();
    for (String line : script.split("\\R")) {
      String stripped = line.strip();
      if (stripped.startsWith("-- step:")) {
        what = stripped.substring("-- step:".length()).strip();
      } else if (!stripped.startsWith("--") && !stripped.isEmpty()) {
        text.append(text.isEmpty() ? "" : " ").append(stripped);
        if (stripped.endsWith(";")) {
          if (what == null) {
            throw new IllegalStateException("A statement of a schema script has no '-- step:' line: " + text);
          }
          steps.add(new Step(what, text.substring(0, text.length() - 1)));
          what = null;
          text.setLength(0);
        }
      }
    }
    if (!text.isEmpty()) {
      throw new IllegalStateException("A schema script ends inside a statement: " + text);
    }
    return new SchemaScript(steps);
  }

  /** Runs every statement in order on {@code database}. */
  public void run(Sql sql, Identifier database) {
    for (Step step : steps) {
      sql.execute(step.what(), step.text().replace("{db}", database.quoted()));
    }
  }

  List<Step> steps() {
    return steps;
  }
}
