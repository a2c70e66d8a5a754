package dev.cutover.engine.spec;

import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * A YAML file's faults as a sentence may state them: where (line and column) and what the parser
 * expected, never the file's text. The parser's own message quotes the offending line, and the file
 * an operator named may not be the spec or profile list it should be, but a secret.
 */
public final class YamlErrors {

  private YamlErrors() {}

  /** For example {@code line 3, column 7: mapping values are not allowed here}. */
  public static String describe(YamlEngineException e) {
    if (e instanceof MarkedYamlEngineException marked) {
      // The parser names an undefined alias or a duplicate key by its text: that text stays out too.
      String problem = marked.getProblem() == null ? "the text cannot be read as YAML"
          : marked.getProblem().strip().replaceFirst("(found undefined alias|found duplicate key).*", "$1");
      return marked.getProblemMark().or(marked::getContextMark)
          .map(m -> "line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ": " + problem)
          .orElse(problem);
    }
    return "the text cannot be read as YAML (" + e.getClass().getSimpleName() + ")";
  }

  /** What a document is when it is not the mapping it should be: a text, a number, a list. Never its value. */
  public static String kind(Object value) {
    return switch (value) {
      case null -> "empty";
      case Map<?, ?> m -> "a mapping";
      case List<?> l -> "a list";
      case Number n -> "a number";
      case Boolean b -> "a yes/no value";
      default -> "a text of " + String.valueOf(value).length() + " characters (not repeated here)";
    };
  }
}
