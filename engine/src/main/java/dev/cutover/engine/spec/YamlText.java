package dev.cutover.engine.spec;

import dev.cutover.engine.api.InvalidInputException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.DuplicateKeyException;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Turns a spec's YAML into maps, lists and scalars within limits that no real spec comes near: at
 * most {@link SpecFiles#MAX_BYTES} characters, {@link #MAX_DEPTH} levels of nesting, {@link
 * #MAX_ALIASES} aliases to lists or mappings, and no structure that contains itself. Refusals give
 * the line and column and what is wrong, never the text found there.
 */
final class YamlText {

  /** The deepest nesting of lists and mappings; a spec needs five. */
  static final int MAX_DEPTH = 20;
  /** Aliases ({@code *name}) to lists or mappings in one spec; expanding more can multiply a document. */
  static final int MAX_ALIASES = 10;

  private static final Pattern QUOTED = Pattern.compile("'([^']*)'|\"[^\"]*\"|\\(Do not use.*\\)");

  private YamlText() {}

  static Object load(String yaml, String origin) {
    if (yaml.length() > SpecFiles.MAX_BYTES) {
      throw new InvalidInputException("spec", "The spec " + origin + " holds " + yaml.length() + " characters, more "
          + "than the limit of " + SpecFiles.MAX_BYTES + " (1 MiB); a spec is a few KiB, so check that it is the right "
          + "text.");
    }
    LoadSettings settings = LoadSettings.builder().setLabel(origin).setAllowDuplicateKeys(false)
        .setAllowRecursiveKeys(false).setMaxAliasesForCollections(MAX_ALIASES)
        .setCodePointLimit(SpecFiles.MAX_BYTES + 1).build();
    try {
      checkDepth(settings, yaml, origin);
      Object root = new Load(settings).loadFromString(yaml);
      checkCycles(root, new IdentityHashMap<>(), origin, "");
      return root;
    } catch (YamlEngineException e) {
      throw new InvalidInputException("spec", "The spec " + origin + " is not valid YAML (" + problem(e, yaml)
          + "); fix it there.");
    } catch (IllegalArgumentException e) {
      // The composer checks some things (a tag with spaces, found by fuzzing) without a place to show.
      throw new InvalidInputException("spec", "The spec " + origin + " is not valid YAML (" + unquoted(
          String.valueOf(e.getMessage())).replaceAll("\\.$", "") + "); fix it there.");
    }
  }

  /** Nesting is counted on the parser's events, before anything recursive builds the document. */
  private static void checkDepth(LoadSettings settings, String yaml, String origin) {
    int depth = 0;
    for (Event e : new Parse(settings).parseString(yaml)) {
      switch (e.getEventId()) {
        case MappingStart, SequenceStart -> {
          if (++depth > MAX_DEPTH) {
            throw new InvalidInputException("spec", "The spec " + origin + " nests lists and mappings more than "
                + MAX_DEPTH + " levels deep" + e.getStartMark().map(m -> " at " + where(m)).orElse("")
                + "; a spec needs five at most, so check the brackets and indentation there.");
          }
        }
        case MappingEnd, SequenceEnd -> depth--;
        default -> { }
      }
    }
  }

  /** An alias may repeat a list or mapping, never put one inside itself. */
  private static void checkCycles(Object value, IdentityHashMap<Object, Boolean> path, String origin, String at) {
    if (!(value instanceof Map<?, ?>) && !(value instanceof List<?>)) {
      return;
    }
    if (path.put(value, Boolean.TRUE) != null) {
      throw new InvalidInputException("spec", "In the spec " + origin + ", " + (at.isEmpty() ? "the document"
          : "field '" + at + "'") + " is an alias of a list or mapping that contains it; write the value out instead "
          + "of the alias.");
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = String.valueOf(entry.getKey());
        checkCycles(entry.getValue(), path, origin, at.isEmpty() ? key : at + "." + key);
      }
    } else {
      List<?> list = (List<?>) value;
      for (int i = 0; i < list.size(); i++) {
        checkCycles(list.get(i), path, origin, at + "[" + i + "]");
      }
    }
    path.remove(value);
  }

  /** What the parser found wrong and where, without the text around it. */
  private static String problem(YamlEngineException e, String yaml) {
    if (e instanceof DuplicateKeyException d) {
      return "a key appears twice in one mapping" + d.getProblemMark().map(m -> " at " + where(m)).orElse("");
    }
    if (e instanceof MarkedYamlEngineException m) {
      Optional<Mark> mark = m.getProblemMark().or(m::getContextMark);
      return unquoted(m.getProblem()) + mark.map(k -> " at " + where(k)).orElse("");
    }
    if (e instanceof ReaderException r) {
      return "a control character U+" + String.format("%04X", r.getCodePoint()) + " at "
          + position(yaml, r.getPosition()) + ", which YAML does not allow";
    }
    String message = String.valueOf(e.getMessage());
    if (message.contains("aliases")) {
      return "more than " + MAX_ALIASES + " aliases to lists or mappings";
    }
    return unquoted(message.lines().findFirst().orElse("a structure it cannot read"));
  }

  /** The parser names the character or key it found in quotes: the sentence keeps only the words. */
  private static String unquoted(String problem) {
    // A quoted punctuation mark (expected ':') is grammar and stays; anything else quoted is the file's text.
    String words = QUOTED.matcher(String.valueOf(problem))
        .replaceAll(m -> m.group(1) != null && m.group(1).matches("\\p{Punct}")
            ? Matcher.quoteReplacement("'" + m.group(1) + "'") : "")
        .replaceAll("\\s+", " ").strip();
    return words.length() > 100 ? words.substring(0, 97) + "..." : words;
  }

  private static String where(Mark mark) {
    return "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
  }

  /** Line and column of the code point at {@code index}. */
  private static String position(String text, int codePointIndex) {
    int line = 1;
    int column = 1;
    int seen = 0;
    for (int i = 0; i < text.length() && seen < codePointIndex; i += Character.charCount(text.codePointAt(i)), seen++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return "line " + line + ", column " + column;
  }
}
