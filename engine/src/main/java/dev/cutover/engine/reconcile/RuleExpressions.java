package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.TableSpec.ExpectedDifference;
import dev.cutover.engine.spec.Determinism;
import dev.cutover.engine.sql.Sql;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each {@code where}, {@code check} and {@code delta} of a rule as the server reads it: ClickHouse
 * parses the text on its own ({@code formatQuerySingleLine}, then {@code EXPLAIN AST}), and anything
 * but one expression (a clause, a second expression, an alias, a subquery, an unbalanced
 * parenthesis) or a call of a non-deterministic function is refused naming the rule and the field.
 */
final class RuleExpressions {

  /** One expression the server parsed: its own single-line text, and its syntax tree, a node a line. */
  record Parsed(String expression, List<String> ast) {

    Parsed {
      ast = List.copyOf(ast);
    }

    /**
     * The numbers and texts the expression writes ({@code 0.005}, {@code 'desk-1'}, each item of
     * {@code IN ('a', 'b')}), as plain text: the values around which a condition turns.
     */
    Set<String> literals() {
      Set<String> out = new LinkedHashSet<>();
      for (String node : ast) {
        Matcher literal = LITERAL.matcher(node);
        if (!literal.find()) {
          continue;
        }
        Matcher value = VALUE.matcher(literal.group(1));
        while (value.find()) {
          out.add(value.group(1) != null ? unescape(value.group(1)) : value.group(2));
        }
      }
      return out;
    }
  }

  /** Parsed expressions this process has checked, by their text as written. */
  private static final Map<String, Parsed> PARSED = new ConcurrentHashMap<>();
  private static final Pattern LITERAL = Pattern.compile("^\\s*Literal (.*?)(?: \\(alias .*\\))?$");
  /** A quoted text, or a number after its type ({@code Float64_0.005}, {@code Int64_-3}). */
  private static final Pattern VALUE =
      Pattern.compile("'((?:[^'\\\\]|\\\\.)*)'|(?:U?Int\\d+|Float\\d+)_(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)");
  /** A node that names a function: called, or one ClickHouse calls when named alone ({@code current_timestamp}). */
  private static final Pattern NAMED = Pattern.compile("^\\s*(?:Function|Identifier) ([A-Za-z_][A-Za-z0-9_]*)(?: |$)");

  private final Sql sql;
  private final TableSpec spec;

  RuleExpressions(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** The server's reading of one field of {@code rule}, after checking that it is one deterministic expression. */
  Parsed parse(ExpectedDifference rule, String field, String text) {
    Parsed known = PARSED.get(text);
    if (known != null) {
      return known;
    }
    String formatted;
    try {
      formatted = sql.queryOne("read rule " + rule.name(), "SELECT formatQuerySingleLine(?)", rs -> rs.getString(1),
          "SELECT " + text);
    } catch (QueryFailedException e) {
      throw refused(spec, rule, field, text, "one SQL expression (ClickHouse cannot parse it: "
          + serverSays(e, "SELECT ".length()) + ")");
    }
    if (!formatted.startsWith("SELECT ")) {
      throw refused(spec, rule, field, text, "one SQL expression");
    }
    List<String> ast = sql.query("check rule " + rule.name(), "EXPLAIN AST " + formatted, rs -> rs.getString(1));
    String problem = structure(ast);
    if (problem != null) {
      throw refused(spec, rule, field, text, "exactly one SQL expression, without " + problem);
    }
    Optional<String> function = nondeterministic(ast);
    if (function.isPresent()) {
      throw refused(spec, rule, field, text, "an expression without " + function.get() + ", whose value changes from "
          + "one run to the next: a rule must classify the same key the same way every time it is judged");
    }
    Parsed parsed = new Parsed(formatted.substring("SELECT ".length()), ast);
    PARSED.put(text, parsed);
    return parsed;
  }

  /** What makes a parsed {@code SELECT <text>} more than one expression, or null when it is one. */
  static String structure(List<String> ast) {
    if (ast.size() < 5 || !ast.get(0).startsWith("SelectWithUnionQuery (children 1)")
        || !ast.get(1).strip().equals("ExpressionList (children 1)")) {
      return "a UNION or a second query";
    }
    if (!ast.get(2).strip().equals("SelectQuery (children 1)")) {
      return "clauses such as FROM, WHERE or SETTINGS";
    }
    if (!ast.get(3).strip().equals("ExpressionList (children 1)")) {
      return "a second expression after a comma";
    }
    if (ast.get(4).contains("(alias ")) {
      return "an alias (AS name)";
    }
    for (int i = 5; i < ast.size(); i++) {
      String node = ast.get(i).strip();
      if (node.startsWith("Subquery") || node.startsWith("SelectWithUnionQuery") || node.startsWith("TableIdentifier")) {
        return "a subquery: a rule speaks only of v1's and v2's columns";
      }
    }
    return null;
  }

  /**
   * The first function of {@link Determinism#REFUSED} the tree calls, as ClickHouse spells it, whatever
   * case the rule wrote it in. Read from the server's tree, so a name in a string or a comment calls nothing.
   */
  static Optional<String> nondeterministic(List<String> ast) {
    for (String node : ast) {
      Matcher named = NAMED.matcher(node);
      if (named.find()) {
        Optional<String> function = Determinism.canonical(named.group(1)).filter(Determinism.REFUSED::contains);
        if (function.isPresent()) {
          return function;
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The server's sentence without the statement it quotes: the operator wrote an expression, not
   * our query. Positions are counted in the operator's text ({@code offset} characters were added
   * before it).
   */
  static String serverSays(QueryFailedException e, int offset) {
    String m = e.getMessage().replaceFirst("^Could not [^:]*: ", "").replaceFirst("^Code: \\d+\\. DB::Exception: ", "")
        .replaceAll(" (Fix the cause and run it again|This can pass; Cutover retries it)\\.$", "")
        // The statement the server quotes is ours, not the operator's: whatever its case, it goes.
        .replaceAll("(?i)\\s*in scope .*?(?=( Maybe you meant|\\s*\\([A-Z_]+\\)\\.?$|$))", "")
        .replaceAll("(?<![.])\\s+Maybe you meant", ". Maybe you meant")
        .replaceAll("\\s*\\([A-Z_]+\\)\\.?$", "").replaceAll("[:.\\s]+$", "");
    var position = Pattern.compile("failed at position (\\d+)").matcher(m);
    if (offset > 0 && position.find()) {
      m = position.replaceFirst("failed at position " + Math.max(1, Integer.parseInt(position.group(1)) - offset));
    }
    return m;
  }

  /** The refusal of one field of a rule: {@code expected} says what it must be instead. */
  static InvalidInputException refused(TableSpec spec, ExpectedDifference rule, String field, String text,
      String expected) {
    String path = "expected_differences[" + spec.expectedDifferences().indexOf(rule) + "]." + field;
    return new InvalidInputException("spec." + path, "In the spec, rule '" + rule.name() + "' has " + field + " '"
        + abbreviate(text) + "'; expected " + expected + ".");
  }

  private static String abbreviate(String text) {
    String one = text.replaceAll("\\s+", " ").strip();
    return one.length() > 80 ? one.substring(0, 77) + "..." : one;
  }

  /** A text literal as the tree shows it ({@code it\'s}), as the value it stands for. */
  private static String unescape(String quoted) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < quoted.length(); i++) {
      char c = quoted.charAt(i);
      if (c != '\\' || i + 1 == quoted.length()) {
        out.append(c);
        continue;
      }
      char next = quoted.charAt(++i);
      out.append(switch (next) {
        case 'n' -> '\n';
        case 't' -> '\t';
        case 'r' -> '\r';
        case '0' -> '\0';
        default -> next;
      });
    }
    return out.toString();
  }

  /** Every expression field of {@code rule} by its name in sentences: where, delta.measure, check[i], in the spec's order. */
  static Map<String, String> fields(TableSpec spec, ExpectedDifference rule) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("where", rule.where());
    for (Identifier m : spec.measures()) {
      String delta = rule.expectedDelta().get(m);
      if (delta != null) {
        fields.put("delta." + m.name(), delta);
      }
    }
    for (int i = 0; i < rule.checks().size(); i++) {
      fields.put("check[" + i + "]", rule.checks().get(i));
    }
    return fields;
  }
}
