package dev.cutover.engine.spec;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.sql.SqlText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Refusals of a transform read from a file ({@code transform: {file: …}}), which never quote the
 * file: it may not be SQL at all but, by a slip of the path, a password file. They say where in the
 * file the fault is (line and column) and what was expected instead.
 */
final class TransformFile {

  /** What is wrong with the file's query. */
  enum Flaw {
    NOT_A_QUERY,
    NO_WINDOW,
    SEPARATOR
  }

  private TransformFile() {}

  /**
   * The refusal for {@code flaw} in the file {@code file} named by the spec {@code origin};
   * {@code transform} is the query as the loader read it, with its window placeholders in full.
   */
  static InvalidInputException refused(String origin, String file, String transform, Flaw flaw, String expected) {
    Optional<String> raw = read(origin, file);
    String fault = switch (flaw) {
      case NOT_A_QUERY -> "does not start with SELECT or WITH" + raw.map(t -> at(t, firstWord(t))).orElse("");
      case NO_WINDOW -> missingWindow(transform);
      case SEPARATOR -> "holds a ';' outside quotes" + raw.map(t -> at(t, SqlText.statementSeparatorAt(t))).orElse("");
    };
    return new InvalidInputException("spec.transform.file", "In the spec " + origin + ", field 'transform.file' "
        + "names " + file + ", and that file " + fault + " (its text is not repeated here); expected " + expected
        + ".");
  }

  private static String missingWindow(String transform) {
    boolean start = transform.contains(SpecLoader.WINDOW_START);
    boolean end = transform.contains(SpecLoader.WINDOW_END);
    return start ? "has no {window_end}"
        : end ? "has no {window_start}" : "has neither {window_start} nor {window_end}";
  }

  private static int firstWord(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (!Character.isWhitespace(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  /** {@code " at line L, column C"} for a position in the text, counted from 1. */
  static String at(String text, int index) {
    if (index < 0 || index > text.length()) {
      return "";
    }
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < index; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return " at line " + line + ", column " + (index - lineStart + 1);
  }

  private static Optional<String> read(String origin, String file) {
    Path base = Path.of(origin).toAbsolutePath().getParent();
    Path path = base == null ? Path.of(file) : base.resolve(file);
    try {
      return Optional.of(Files.readString(path, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // gone since it was read: the refusal names the fault without its place
    }
  }
}
