package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.TableSpec.ExpectedDifference;
import dev.cutover.engine.reconcile.RuleExpressions.Parsed;
import dev.cutover.engine.sql.Sql;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether a rule's {@code delta} or {@code check} says anything, tried on rows made up for the
 * purpose. A delta that equals {@code v2.m - v1.m} on every such row where {@code m} changed
 * explains every change of {@code m}; a check that holds on every row is true whatever the values.
 * Either makes a rule that checks nothing, and the reconciliation would call any change expected.
 *
 * <p>The rows have the columns the reconciliation gives the rules, in their own types (read from
 * v1): each key's text the same in both versions, {@code v1.n = v2.n = 1}, and every other column a
 * value drawn apart from the others (by a fixed hash of the row and the column) from small numbers
 * of both signs, with and without fractions, and from the numbers and texts the expression itself
 * writes, each also negated, one more, one less and ten times as large. So a bound such as {@code
 * v2.clicks <= 1000} meets a row above it. A check meets negative values of an unsigned column
 * too: {@code v2.clicks >= 0} states what the fix keeps, though v1's type may already say so.
 * Legitimate rules fail on many of these rows; only one that cannot fail holds on all.
 *
 * <p>A rule the server cannot evaluate on these rows (a division by zero, a decimal that overflows)
 * is not refused on this count: nothing was shown.
 */
final class RuleProbes {

  /** How many rows are tried: enough that two columns meet each pair of their values a few times. */
  static final int ROWS = 8_192;

  /** Values every numeric column draws from, beside the expression's own. */
  private static final List<String> NUMBERS = List.of("0", "1", "-1", "2", "-2", "3", "-7", "10", "0.5", "-0.25",
      "1.125", "-3.75", "64", "-100", "255.5", "1000", "-4096.125", "65537", "1000000", "-2500000.5");
  /** Texts every key draws from, beside the expression's own. */
  private static final List<String> TEXTS = List.of("", "a", "b", "Z", "0", "1", "-1", "desk-1", "x y", "ünï");
  /** The expression's own values taken at most, so that a pasted list does not make a long statement. */
  private static final int MOST_LITERALS = 40;

  private final Sql sql;
  private final TableSpec spec;
  private final Map<String, String> columns;

  /**
   * Probes for {@code spec}'s rules; {@code columns} are the names and types of the columns the
   * reconciliation gives them ({@code hh}, {@code k_key}, {@code v1.key}, {@code v1.n}, {@code v1.m}, …).
   */
  RuleProbes(Sql sql, TableSpec spec, Map<String, String> columns) {
    this.sql = sql;
    this.spec = spec;
    this.columns = columns;
  }

  /** Refuses the first delta or check of {@code rule} that checks nothing, naming the rule and the field. */
  void check(ExpectedDifference rule, Map<String, Parsed> fields) {
    Map<String, String> written = RuleExpressions.fields(spec, rule);
    for (var field : fields.entrySet()) {
      String name = field.getKey();
      Parsed parsed = field.getValue();
      if (name.startsWith("delta.")) {
        Identifier m = Identifier.of(name.substring("delta.".length()));
        String a = "v1." + m.quoted();
        String b = "v2." + m.quoted();
        if (holdsOnEveryRow(parsed, false, a + " != " + b, "(" + parsed.expression() + ") = (" + b + " - " + a + ")")) {
          throw RuleExpressions.refused(spec, rule, name, written.get(name), "the change the fix makes to "
              + m.name() + ": this one equals v2." + m.name() + " - v1." + m.name() + " whatever the values, so it "
              + "explains every change of " + m.name() + " and checks nothing (state what the fix does, such as -2 * "
              + "v1.fees, or bound it with a check such as v2." + m.name() + " <= v1." + m.name() + ")");
        }
      } else if (name.startsWith("check[")) {
        if (holdsOnEveryRow(parsed, true, "1", parsed.expression())) {
          throw RuleExpressions.refused(spec, rule, name, written.get(name), "a condition the fix guarantees: this "
              + "one holds whatever the values, so it checks nothing (state a bound such as v2.clicks <= v1.clicks)");
        }
      }
    }
  }

  /**
   * Whether {@code condition} holds on every probe row where {@code among} holds (and there is one),
   * unsigned columns taking negative values too when {@code signed}.
   */
  private boolean holdsOnEveryRow(Parsed parsed, boolean signed, String among, String condition) {
    List<String> numbers = new ArrayList<>(NUMBERS);
    List<String> texts = new ArrayList<>(TEXTS);
    for (String literal : parsed.literals().stream().limit(MOST_LITERALS).toList()) {
      texts.add(literal);
      numbers.addAll(around(literal));
    }
    String rows = rows(signed, numbers.size(), texts.size());
    List<Object> values = new ArrayList<>(numbers);
    values.addAll(texts);
    try {
      return sql.queryOne("try a rule on made-up rows", "SELECT countIf(" + among + ") > 0 AND countIf((" + among
          + ") AND NOT ifNull(toUInt8(" + condition + "), 0)) = 0 FROM (" + rows + ")", rs -> rs.getBoolean(1),
          values.toArray());
    } catch (QueryFailedException e) {
      return false;
    }
  }

  /** The probe rows' statement: {@code numbers} then {@code texts} bound values come first. */
  private String rows(boolean signed, int numbers, int texts) {
    StringBuilder out = new StringBuilder("WITH [" + marks(numbers) + "] AS _cutover_numbers, [" + marks(texts)
        + "] AS _cutover_texts SELECT ");
    List<String> keyNames = spec.keys().stream().map(Identifier::name).toList();
    int seed = 0;
    List<String> select = new ArrayList<>();
    for (var column : columns.entrySet()) {
      String name = column.getKey();
      String type = column.getValue();
      String quoted = Identifier.of(name).quoted();
      int key = keyNames.indexOf(name.replaceFirst("^(k_|v1\\.|v2\\.)", ""));
      boolean isKey = key >= 0 && !name.equals("hh") && !name.endsWith(".n");
      // A key is the same text on both sides: the hash is the key's, not the column's.
      String pick = "cityHash64(number, " + (isKey ? 1000 + key : seed++) + ")";
      if (name.equals("v1.n") || name.equals("v2.n")) {
        select.add("CAST(1 AS " + type + ") AS " + quoted);
        continue;
      }
      String bare = type.replaceAll("^(Nullable|LowCardinality)\\((.*)\\)$", "$2");
      String probed = signed ? signedOf(bare) : bare;
      String target = type.replace(bare, probed);
      // The server named the type; an Enum's names are quoted in it, so it is quoted again as a text.
      String named = "'" + probed.replace("\\", "\\\\").replace("'", "\\'") + "'";
      String pool = bare.equals("String") ? "_cutover_texts"
          : "arrayFilter(x -> isNotNull(accurateCastOrNull(x, " + named + ")), _cutover_numbers)";
      String value = "accurateCastOrDefault(arrayElement(" + pool + ", 1 + " + pick + " % greatest(1, length(" + pool
          + "))), " + named + ")";
      select.add((target.equals(probed) ? value : "CAST(" + value + " AS " + target + ")") + " AS " + quoted);
    }
    return out.append(String.join(", ", select)).append(" FROM numbers(" + ROWS + ")").toString();
  }

  /** An unsigned integer type as the signed one that holds all its values and their negatives. */
  static String signedOf(String type) {
    var unsigned = java.util.regex.Pattern.compile("UInt(8|16|32|64|128|256)").matcher(type);
    if (!unsigned.matches()) {
      return type;
    }
    return "Int" + Math.min(256, 2 * Integer.parseInt(unsigned.group(1)));
  }

  /** A number the expression writes, negated, one more, one less and ten times; nothing for a text. */
  static Set<String> around(String literal) {
    BigDecimal n;
    try {
      n = new BigDecimal(literal);
    } catch (NumberFormatException e) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (BigDecimal v : List.of(n, n.negate(), n.add(BigDecimal.ONE), n.subtract(BigDecimal.ONE),
        n.multiply(BigDecimal.TEN), n.multiply(BigDecimal.TEN).negate())) {
      out.add(v.toPlainString());
    }
    return out;
  }

  private static String marks(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> "?").collect(Collectors.joining(", "));
  }
}
