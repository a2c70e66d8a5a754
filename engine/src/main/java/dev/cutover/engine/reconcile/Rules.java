package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.TableSpec.ExpectedDifference;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.Readable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The spec's expected-difference rules as SQL the reconciliation runs, and the comparisons of
 * measures by their types.
 *
 * <p>Every {@code where}, {@code check} and {@code delta} is one expression: ClickHouse parses it
 * on its own ({@code formatQuerySingleLine}, then {@code EXPLAIN AST}), and anything else (a
 * clause, a second expression, an alias, a subquery, an unbalanced parenthesis) is refused naming
 * the rule and the field. The reconciliation embeds the server's own normalized text of each
 * expression in parentheses, so no rule can change how the others are combined. {@link #compile}
 * also resolves every expression against v1's and v2's columns before anything is written.
 *
 * <p>Integer and decimal measures are compared exactly; only floating-point measures allow a
 * tolerance, the one the rule or the measure states, else a relative 1e-9 that absorbs the
 * summation order of a float aggregate and nothing more.
 */
public final class Rules {

  /** The default allowance of a floating-point measure without a stated tolerance, relative to its size. */
  static final String FLOAT_RELATIVE = "1e-9";

  /** Normalized text of each expression this process has checked, by its text as written. */
  private static final Map<String, String> NORMALIZED = new ConcurrentHashMap<>();

  /** How a measure is compared. */
  public enum Kind {
    INTEGER,
    DECIMAL,
    FLOAT,
    OTHER
  }

  private final Sql sql;
  private final TableSpec spec;

  public Rules(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** Each measure's kind, from v1's column types. */
  public Map<Identifier, Kind> kinds() {
    Map<Identifier, String> types = new LinkedHashMap<>();
    sql.query("read the types of " + spec.liveTable(), "SELECT name, type FROM system.columns WHERE database = ? AND "
        + "table = ?", rs -> types.put(Identifier.of(rs.getString(1)), rs.getString(2)), spec.database().name(),
        spec.liveTable().name());
    Map<Identifier, Kind> out = new LinkedHashMap<>();
    for (Identifier m : spec.measures()) {
      out.put(m, kind(types.getOrDefault(m, "")));
    }
    return out;
  }

  static Kind kind(String type) {
    String t = type.replaceAll("^(Nullable|LowCardinality)\\((.*)\\)$", "$2");
    t = t.replaceAll("^(Nullable|LowCardinality)\\((.*)\\)$", "$2");
    if (t.matches("U?Int(8|16|32|64|128|256)")) {
      return Kind.INTEGER;
    }
    if (t.startsWith("Decimal")) {
      return Kind.DECIMAL;
    }
    if (t.startsWith("Float") || t.equals("BFloat16")) {
      return Kind.FLOAT;
    }
    return Kind.OTHER;
  }

  /** Whether measure {@code m} is the same in {@code a} and {@code b}: exact, or within a float's tolerance. */
  public String same(Identifier m, Kind kind, String a, String b) {
    if (kind != Kind.FLOAT) {
      return "(" + a + " = " + b + ")";
    }
    BigDecimal stated = spec.tolerances().get(m);
    return stated != null ? "(abs(" + a + " - " + b + ") <= " + stated.toPlainString() + ")"
        : "(abs(" + a + " - " + b + ") <= " + FLOAT_RELATIVE + " * greatest(1, abs(" + a + "), abs(" + b + ")))";
  }

  /** Whether measure {@code m} changed from {@code a} to {@code b} by {@code expected}, as the rule allows. */
  String delta(ExpectedDifference rule, Identifier m, Kind kind, String a, String b, String expected) {
    String change = "((" + b + " - " + a + ") - (" + expected + "))";
    if (kind == Kind.FLOAT) {
      BigDecimal stated = rule.tolerance().orElse(spec.tolerances().get(m));
      return stated != null ? "(abs" + change + " <= " + stated.toPlainString() + ")"
          : "(abs" + change + " <= " + FLOAT_RELATIVE + " * greatest(1, abs(" + a + "), abs(" + b + ")))";
    }
    if (rule.tolerance().isEmpty() || rule.tolerance().get().signum() == 0) {
      return "((" + b + " - " + a + ") = (" + expected + "))";
    }
    BigDecimal tolerance = rule.tolerance().get().stripTrailingZeros();
    int scale = Math.min(38, Math.max(0, tolerance.scale()));
    return "(abs" + change + " <= toDecimal128('" + tolerance.toPlainString() + "', " + scale + "))";
  }

  /**
   * {@code multiIf(cond1, 'name1', cond2, 'name2', '')}: the first rule that explains a key present
   * once in each version, over the sides {@code v1} and {@code v2}.
   */
  public String explaining(Map<Identifier, Kind> kinds) {
    if (spec.expectedDifferences().isEmpty()) {
      return "''";
    }
    StringBuilder out = new StringBuilder("multiIf(");
    for (ExpectedDifference rule : spec.expectedDifferences()) {
      List<String> conditions = new ArrayList<>();
      conditions.add("v1.n = 1 AND v2.n = 1");
      conditions.add("(" + normalized(rule, "where", rule.where()) + ")");
      for (Identifier m : spec.measures()) {
        String a = "v1." + m.quoted();
        String b = "v2." + m.quoted();
        String expected = rule.expectedDelta().get(m);
        if (expected != null) {
          conditions.add(delta(rule, m, kinds.get(m), a, b, "(" + normalized(rule, "delta." + m.name(), expected) + ")"));
        } else if (!rule.checkedMeasures().contains(m)) {
          conditions.add(same(m, kinds.get(m), a, b));
        }
      }
      for (int i = 0; i < rule.checks().size(); i++) {
        conditions.add("(" + normalized(rule, "check[" + i + "]", rule.checks().get(i)) + ")");
      }
      out.append(String.join(" AND ", conditions)).append(", ").append(quote(rule.name())).append(", ");
    }
    return out.append("'')").toString();
  }

  /**
   * Checks every expression of every rule and, when v1 exists, compiles each against v1's and v2's
   * columns as the reconciliation sees them (keys as text, measures summed per hour and key).
   *
   * @throws InvalidInputException naming the rule and the field of the first mistake
   */
  public void compile(boolean againstColumns) {
    List<ExpectedDifference> rules = spec.expectedDifferences();
    // A spec that names a column v1 lacks is refused by the planner with its own sentence; the rules wait for it.
    String sides = againstColumns && namedColumnsExist() ? sides() : null;
    for (int r = 0; r < rules.size(); r++) {
      ExpectedDifference rule = rules.get(r);
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("where", rule.where());
      rule.expectedDelta().forEach((m, e) -> fields.put("delta." + m.name(), e));
      for (int i = 0; i < rule.checks().size(); i++) {
        fields.put("check[" + i + "]", rule.checks().get(i));
      }
      for (var field : fields.entrySet()) {
        String expression = normalized(rule, field.getKey(), field.getValue());
        if (sides != null) {
          String type = typeOf(r, rule, field.getKey(), expression, sides);
          boolean condition = !field.getKey().startsWith("delta.");
          String bare = type.replaceAll("^(Nullable|LowCardinality)\\((.*)\\)$", "$2");
          if (condition && !(bare.equals("UInt8") || bare.equals("Bool"))) {
            throw refused(r, rule, field.getKey(), field.getValue(), "a condition (true or false), not a value of "
                + "type " + type);
          }
          if (!condition && kind(bare) == Kind.OTHER) {
            throw refused(r, rule, field.getKey(), field.getValue(), "a number (the expected v2 - v1), not a value of "
                + "type " + type);
          }
        }
      }
    }
  }

  private String typeOf(int r, ExpectedDifference rule, String field, String expression, String sides) {
    try {
      return sql.query("compile rule " + rule.name(), "DESCRIBE (SELECT (" + expression + ") AS e " + sides + ")",
          rs -> rs.getString(2)).getFirst();
    } catch (QueryFailedException e) {
      throw refused(r, rule, field, expression, "an expression over v1's and v2's columns "
          + spec.measures().stream().map(m -> "v1." + m.name()).collect(Collectors.joining(", ")) + ", … (the server "
          + "says: " + serverSays(e, 0) + ")");
    }
  }

  private boolean namedColumnsExist() {
    List<String> columns = sql.query("read the columns of " + spec.liveTable(), "SELECT name FROM system.columns WHERE "
        + "database = ? AND table = ?", rs -> rs.getString(1), spec.database().name(), spec.liveTable().name());
    List<Identifier> named = new ArrayList<>(spec.keys());
    named.addAll(spec.measures());
    named.add(spec.timeColumn());
    return named.stream().allMatch(c -> columns.contains(c.name()));
  }

  /** The FROM clause of the reconciliation's key-level comparison, reading no rows. */
  private String sides() {
    String v1 = new Readable(sql, spec).from(spec.liveTable());
    return "FROM (" + KeySides.of(spec, v1, v1, "0") + ")";
  }

  /** The server's own single-line text of one expression, after checking that it is exactly one. */
  private String normalized(ExpectedDifference rule, String field, String text) {
    String known = NORMALIZED.get(text);
    if (known != null) {
      return known;
    }
    int index = spec.expectedDifferences().indexOf(rule);
    String formatted;
    try {
      formatted = sql.queryOne("read rule " + rule.name(), "SELECT formatQuerySingleLine(?)", rs -> rs.getString(1),
          "SELECT " + text);
    } catch (QueryFailedException e) {
      throw refused(index, rule, field, text, "one SQL expression (ClickHouse cannot parse it: "
          + serverSays(e, "SELECT ".length()) + ")");
    }
    if (!formatted.startsWith("SELECT ")) {
      throw refused(index, rule, field, text, "one SQL expression");
    }
    List<String> ast = sql.query("check rule " + rule.name(), "EXPLAIN AST " + formatted, rs -> rs.getString(1));
    String problem = structure(ast);
    if (problem != null) {
      throw refused(index, rule, field, text, "exactly one SQL expression, without " + problem);
    }
    String expression = formatted.substring("SELECT ".length());
    NORMALIZED.put(text, expression);
    return expression;
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
    var position = java.util.regex.Pattern.compile("failed at position (\\d+)").matcher(m);
    if (offset > 0 && position.find()) {
      m = position.replaceFirst("failed at position " + Math.max(1, Integer.parseInt(position.group(1)) - offset));
    }
    return m;
  }

  private InvalidInputException refused(int index, ExpectedDifference rule, String field, String text, String expected) {
    String path = "expected_differences[" + index + "]." + field;
    return new InvalidInputException("spec." + path, "In the spec, rule '" + rule.name() + "' has " + field + " '"
        + abbreviate(text) + "'; expected " + expected + ".");
  }

  private static String abbreviate(String text) {
    String one = text.replaceAll("\\s+", " ").strip();
    return one.length() > 80 ? one.substring(0, 77) + "..." : one;
  }

  private static String quote(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
