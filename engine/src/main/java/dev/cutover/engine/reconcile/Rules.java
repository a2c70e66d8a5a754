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
import java.util.stream.Collectors;

/**
 * The spec's expected-difference rules as SQL the reconciliation runs, and the comparisons of
 * measures by their types.
 *
 * <p>Every {@code where}, {@code check} and {@code delta} is one deterministic expression, as
 * {@link RuleExpressions} checks. The reconciliation embeds the server's own normalized text of each
 * expression in parentheses, so no rule can change how the others are combined. {@link #compile}
 * also resolves every expression against v1's and v2's columns, and refuses a delta or a check that
 * checks nothing ({@link RuleProbes}), before anything is written.
 *
 * <p>Integer and decimal measures are compared exactly; only floating-point measures allow a
 * tolerance, the one the rule or the measure states, else a relative 1e-9 that absorbs the
 * summation order of a float aggregate and nothing more.
 */
public final class Rules {

  /** The default allowance of a floating-point measure without a stated tolerance, relative to its size. */
  static final String FLOAT_RELATIVE = "1e-9";

  /** How a measure is compared. */
  public enum Kind {
    INTEGER,
    DECIMAL,
    FLOAT,
    OTHER
  }

  private final Sql sql;
  private final TableSpec spec;
  private final RuleExpressions expressions;

  public Rules(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
    this.expressions = new RuleExpressions(sql, spec);
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
      conditions.add("(" + expressions.parse(rule, "where", rule.where()).expression() + ")");
      for (Identifier m : spec.measures()) {
        String a = "v1." + m.quoted();
        String b = "v2." + m.quoted();
        String expected = rule.expectedDelta().get(m);
        if (expected != null) {
          String parsed = expressions.parse(rule, "delta." + m.name(), expected).expression();
          conditions.add(delta(rule, m, kinds.get(m), a, b, "(" + parsed + ")"));
        } else if (!rule.checkedMeasures().contains(m)) {
          conditions.add(same(m, kinds.get(m), a, b));
        }
      }
      for (int i = 0; i < rule.checks().size(); i++) {
        conditions.add("(" + expressions.parse(rule, "check[" + i + "]", rule.checks().get(i)).expression() + ")");
      }
      out.append(String.join(" AND ", conditions)).append(", ").append(quote(rule.name())).append(", ");
    }
    return out.append("'')").toString();
  }

  /**
   * Checks every expression of every rule and, when v1 exists, compiles each against v1's and v2's
   * columns as the reconciliation sees them (keys as text, measures summed per hour and key), and
   * tries each delta and check on made-up rows of those columns' types. Without v1 the types are
   * unknown, and they decide what an expression computes, so the trial waits for v1 as the
   * compilation does.
   *
   * @throws InvalidInputException naming the rule and the field of the first mistake
   */
  public void compile(boolean againstColumns) {
    // A spec that names a column v1 lacks is refused by the planner with its own sentence; the rules wait for it.
    String sides = againstColumns && namedColumnsExist() ? sides() : null;
    RuleProbes probes = sides == null ? null : new RuleProbes(sql, spec, columns(sides));
    for (ExpectedDifference rule : spec.expectedDifferences()) {
      Map<String, String> fields = RuleExpressions.fields(spec, rule);
      Map<String, RuleExpressions.Parsed> parsed = new LinkedHashMap<>();
      for (var field : fields.entrySet()) {
        parsed.put(field.getKey(), expressions.parse(rule, field.getKey(), field.getValue()));
      }
      if (probes == null) {
        continue;
      }
      for (var field : parsed.entrySet()) {
        String written = fields.get(field.getKey());
        String type = typeOf(rule, field.getKey(), field.getValue().expression(), sides);
        boolean condition = !field.getKey().startsWith("delta.");
        String bare = type.replaceAll("^(Nullable|LowCardinality)\\((.*)\\)$", "$2");
        if (condition && !(bare.equals("UInt8") || bare.equals("Bool"))) {
          throw RuleExpressions.refused(spec, rule, field.getKey(), written, "a condition (true or false), not a value "
              + "of type " + type);
        }
        if (!condition && kind(bare) == Kind.OTHER) {
          throw RuleExpressions.refused(spec, rule, field.getKey(), written, "a number (the expected v2 - v1), not a "
              + "value of type " + type);
        }
      }
      probes.check(rule, parsed);
    }
  }

  private String typeOf(ExpectedDifference rule, String field, String expression, String sides) {
    try {
      return sql.query("compile rule " + rule.name(), "DESCRIBE (SELECT (" + expression + ") AS e " + sides + ")",
          rs -> rs.getString(2)).getFirst();
    } catch (QueryFailedException e) {
      throw RuleExpressions.refused(spec, rule, field, expression, "an expression over v1's and v2's columns "
          + spec.measures().stream().map(m -> "v1." + m.name()).collect(Collectors.joining(", ")) + ", … (the server "
          + "says: " + RuleExpressions.serverSays(e, 0) + ")");
    }
  }

  /** The names and types of the columns the rules read, as {@link #sides} gives them. */
  private Map<String, String> columns(String sides) {
    Map<String, String> out = new LinkedHashMap<>();
    sql.query("read the columns of the rules", "DESCRIBE (SELECT * " + sides + ")",
        rs -> out.put(rs.getString(1), rs.getString(2)));
    return out;
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

  private static String quote(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
