package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.TestEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The expected-difference rules check what they say: every where, check and delta is one
 * expression the server parses (a check and a delta as much as a where), none calls a function
 * whose value changes from one run to the next, a delta that restates {@code v2 - v1} or a check
 * that holds whatever the values is refused as checking nothing, and a float measure moves within
 * its stated tolerance and no further. On a table with an integer, two decimal and a float measure.
 */
class RulesTest {

  private static final String MEASURES = "[units, amount, {name: ratio, tolerance: 0.01}, fee]";
  private static final HourPartition HOUR = HourPartition.parse("hour", "2026-06-01T10:00");
  private static final Identifier V1 = Identifier.of("r_v1");
  private static final Identifier V2 = Identifier.of("r_v2");

  private static Database db;
  private static Sql sql;
  private static Engine engine;

  @BeforeAll
  static void tables() {
    db = TestEngine.freshDatabase(RulesTest.class);
    sql = new Sql(db.dataSource());
    engine = new Engine(db);
    sql.execute("source", "CREATE TABLE events (ts DateTime('UTC'), k String) ENGINE = MergeTree ORDER BY ts");
    for (Identifier v : List.of(V1, V2)) {
      sql.execute("create " + v, "CREATE TABLE " + v.name() + " (hour DateTime('UTC'), k String, units UInt64, "
          + "amount Decimal(18, 6), ratio Float64, fee Decimal(18, 6)) ENGINE = MergeTree PARTITION BY "
          + "toStartOfHour(hour) ORDER BY (hour, k)");
    }
    sql.execute("view", "CREATE VIEW r AS SELECT * FROM r_v1");
    // key, v1 (units, amount, ratio, fee), v2 (units, amount, ratio, fee)
    row("same", "5, 1.5, 0.25, 0.5", "5, 1.5, 0.25, 0.5");
    row("ratio-by-0.005", "5, 1.5, 0.25, 0.5", "5, 1.5, 0.255, 0.5");
    row("ratio-by-0.02", "5, 1.5, 0.25, 0.5", "5, 1.5, 0.27, 0.5");
    row("ratio-by-1.005", "5, 1.5, 0.25, 0.5", "5, 1.5, 1.255, 0.5");
    row("ratio-by-1.02", "5, 1.5, 0.25, 0.5", "5, 1.5, 1.27, 0.5");
    row("amount-by-a-millionth", "5, 1.5, 0.25, 0.5", "5, toDecimal64('1.500001', 6), 0.25, 0.5");
  }

  private static void row(String key, String v1, String v2) {
    sql.execute("v1 " + key, "INSERT INTO r_v1 SELECT toDateTime(?, 'UTC'), ?, " + v1, HOUR.epochSecond(), key);
    sql.execute("v2 " + key, "INSERT INTO r_v2 SELECT toDateTime(?, 'UTC'), ?, " + v2, HOUR.epochSecond(), key);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static TableSpec spec(String measures, String rules) {
    return SpecLoader.parse("""
        spec: 1
        name: r
        database: %s
        tables: {live: r_v1, target: r_v2, consumer_view: r}
        time_column: hour
        keys: [k]
        measures: %s
        sources: [{table: events, time_column: ts}]
        transform: |
          SELECT toStartOfHour(ts) AS hour, k, toUInt64(1) AS units, toDecimal64(0, 6) AS amount, 0. AS ratio,
            toDecimal64(0, 6) AS fee FROM {events} WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, k
        %s
        """.formatted(db.server().database(), measures, rules), "r.yaml");
  }

  /** The spec with one rule {@code r}: {@code fields} inside its mapping, beside its name and why. */
  private static TableSpec rule(String fields) {
    return spec(MEASURES, "expected_differences: [{name: r, " + fields + ", why: w}]");
  }

  /** {@code text} as a YAML text in single quotes. */
  private static String quoted(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static InvalidInputException refusedWhenLoaded(String fields) {
    return assertThrows(InvalidInputException.class, () -> engine.specs().checkRules(rule(fields)), fields);
  }

  /** Each changed key of the hour and the rule that explains it, or "unexpected". */
  private static Map<String, String> judged(TableSpec spec) {
    Map<String, String> out = new TreeMap<>();
    new Differ(sql, spec).keys(V1, V2, List.of(HOUR), 100)
        .forEach(k -> out.put(k.key().getFirst(), k.rule().orElse("unexpected")));
    return out;
  }

  /**
   * A float measure with a stated tolerance of 0.01: a key whose ratio moved by 0.005 is the same in
   * both versions, one that moved by 0.02 differs; a rule that says the ratio grew by 1 explains a
   * growth of 1.005 and not one of 1.02, within the same tolerance.
   */
  @Test
  void aFloatMeasureMovesWithinItsStatedToleranceAndNoFurther() {
    assertEquals(Map.of("amount-by-a-millionth", "unexpected", "ratio-by-0.02", "unexpected", "ratio-by-1.005",
        "unexpected", "ratio-by-1.02", "unexpected"), judged(spec(MEASURES, "")),
        "ratio-by-0.005 is within 0.01, so not a changed key");

    TableSpec grew = rule("delta: {ratio: '1'}");
    engine.specs().checkRules(grew);
    assertEquals(Map.of("amount-by-a-millionth", "unexpected", "ratio-by-0.02", "unexpected", "ratio-by-1.005", "r",
        "ratio-by-1.02", "unexpected"), judged(grew));

    TableSpec stated = spec(MEASURES, "expected_differences: [{name: r, delta: {ratio: '1'}, tolerance: 0.03, why: w}]");
    assertEquals(Map.of("amount-by-a-millionth", "unexpected", "ratio-by-0.02", "unexpected", "ratio-by-1.005", "r",
        "ratio-by-1.02", "r"), judged(stated), "the rule's own tolerance of 0.03 takes the place of the measure's");
  }

  /** The largest and the finest tolerance a spec may state run as the reconciliation's SQL, not as a server error. */
  @Test
  void theWidestAndFinestTolerancesASpecMayStateAreComparedWithoutAServerError() {
    TableSpec widest = spec("[units, amount, {name: ratio, tolerance: 1000000000000000}, fee]", """
        expected_differences:
          - {name: finest, delta: {amount: "toDecimal64('0.000001', 6)"}, tolerance: 0.000000000000000001, why: w}
        """);
    engine.specs().checkRules(widest);
    assertEquals(Map.of("amount-by-a-millionth", "finest"), judged(widest), "every ratio is within 1e15 of the other");

    TableSpec anyRatio = spec(MEASURES, """
        expected_differences:
          - {name: widest, delta: {ratio: '0'}, tolerance: 1000000000000000, why: w}
        """);
    engine.specs().checkRules(anyRatio);
    assertEquals(Map.of("amount-by-a-millionth", "unexpected", "ratio-by-0.02", "widest", "ratio-by-1.005", "widest",
        "ratio-by-1.02", "widest"), judged(anyRatio));
  }

  /**
   * A check and a delta are parsed and checked as strictly as a where: one expression, no clause,
   * alias, subquery, union or second expression, refused naming the rule and the field, when the
   * spec loads and again when the reconciliation judges keys with a spec that was never loaded.
   */
  @Test
  void aCheckOrADeltaThatIsNotOneExpressionIsRefusedNamingTheRuleAndTheField() {
    Map<String, String> wrong = new LinkedHashMap<>();
    wrong.put("v2.units <= v1.units, 1", "exactly one SQL expression, without a second expression after a comma.");
    wrong.put("(SELECT count() FROM r_v2) > 0", "exactly one SQL expression, without a subquery: a rule speaks only "
        + "of v1's and v2's columns.");
    wrong.put("v2.units IN (SELECT units FROM r_v1)", "exactly one SQL expression, without a subquery: a rule speaks "
        + "only of v1's and v2's columns.");
    wrong.put("1 FROM system.one", "exactly one SQL expression, without clauses such as FROM, WHERE or SETTINGS.");
    wrong.put("v2.units > 0 AS x", "exactly one SQL expression, without an alias (AS name).");
    wrong.put("v2.units > 0 UNION ALL SELECT 1", "exactly one SQL expression, without a UNION or a second query.");
    wrong.put("(v2.units > 0", "one SQL expression (ClickHouse cannot parse it:");
    for (var w : wrong.entrySet()) {
      String check = "check: '" + w.getKey() + "'";
      var e = refusedWhenLoaded(check);
      assertTrue(e.getMessage().startsWith("In the spec, rule 'r' has check[0] '" + w.getKey() + "'; expected "
          + w.getValue()), e.getMessage());
      assertEquals("spec.expected_differences[0].check[0]", e.field());
      var judging = assertThrows(InvalidInputException.class, () -> judged(rule(check)), check);
      assertEquals(e.getMessage(), judging.getMessage(), "judging keys refuses the check as loading does");

      String second = "check: [v2.units >= 0, '" + w.getKey() + "']";
      assertEquals("spec.expected_differences[0].check[1]", refusedWhenLoaded(second).field());

      String delta = "delta: {amount: '" + w.getKey().replace("units", "amount") + "'}";
      var d = refusedWhenLoaded(delta);
      assertTrue(d.getMessage().startsWith("In the spec, rule 'r' has delta.amount '" + w.getKey().replace("units",
          "amount") + "'; expected " + w.getValue()), d.getMessage());
      assertEquals("spec.expected_differences[0].delta.amount", d.field());
      assertThrows(InvalidInputException.class, () -> judged(rule(delta)), delta);
    }
  }

  /**
   * A delta equal to {@code v2.m - v1.m} explains every change of {@code m}, however it is written;
   * a delta that says what the fix did to it is kept, for an integer, a decimal and a float measure.
   */
  @Test
  void aDeltaThatRestatesTheChangeOfItsMeasureIsRefusedAsCheckingNothing() {
    for (String m : List.of("units", "amount", "ratio")) {
      for (String restated : List.of("v2.%s - v1.%s", "-(v1.%s - v2.%s)", "v2.%s - v1.%s + 0", "(v2.%s - v1.%s) * 1",
          "v2.`%s` + (-v1.%s)")) {
        String text = restated.formatted(m, m);
        var e = refusedWhenLoaded("delta: {" + m + ": '" + text + "'}");
        assertEquals("In the spec, rule 'r' has delta." + m + " '" + text + "'; expected the change the fix makes to "
            + m + ": this one equals v2." + m + " - v1." + m + " whatever the values, so it explains every change of "
            + m + " and checks nothing (state what the fix does, such as -2 * v1.fees, or bound it with a check such "
            + "as v2." + m + " <= v1." + m + ").", e.getMessage());
        assertEquals("spec.expected_differences[0].delta." + m, e.field());
      }
    }
    for (String kept : List.of("v2.amount - v1.amount - v1.fee", "-2 * v1.fee", "v2.fee - v1.fee", "-v2.amount",
        "if(v1.amount > 1000, v2.amount - v1.amount, 0)")) {
      engine.specs().checkRules(rule("delta: {amount: '" + kept + "'}"));
    }
    engine.specs().checkRules(rule("delta: {units: 'v2.units - v1.units + 1'}"));
  }

  /**
   * A check that holds whatever the values checks nothing; a bound holds for some values only, even
   * one v1's unsigned type already keeps ({@code v2.units >= 0}) or one around a number it names.
   */
  @Test
  void aCheckThatHoldsWhateverTheValuesIsRefusedAndABoundIsKept() {
    for (String always : List.of("1", "true", "1 = 1", "v2.units = v2.units", "v1.k = v2.k",
        "v2.amount - v2.amount = 0", "v1.n = 1")) {
      var e = refusedWhenLoaded("check: " + quoted(always));
      assertEquals("In the spec, rule 'r' has check[0] '" + always + "'; expected a condition the fix guarantees: "
          + "this one holds whatever the values, so it checks nothing (state a bound such as v2.clicks <= "
          + "v1.clicks).", e.getMessage());
      assertEquals("spec.expected_differences[0].check[0]", e.field());
    }
    assertEquals("spec.expected_differences[0].check[1]",
        refusedWhenLoaded("check: [v2.units <= v1.units, 'true']").field());
    for (String bound : List.of("v2.units <= v1.units", "v2.units >= 0", "v2.units <= 1000",
        "abs(v2.ratio - v1.ratio) <= 0.005", "v1.k != 'blocked'", "v1.k NOT IN ('a', 'zz')", "v2.amount != 12345.678",
        "v2.amount < v1.amount OR v1.fee = 0", "v2.ratio < 1e300", "v1.k != 'what?'")) {
      engine.specs().checkRules(rule("check: " + quoted(bound)));
    }
  }

  /**
   * Rand gave another verdict on the same hour each time: a function whose value changes from one
   * run to the next is refused in every field, in any case and quoted, read from the server's tree
   * (so a name inside a text calls nothing), whether or not v1 exists yet.
   */
  @Test
  void aNonDeterministicFunctionIsRefusedInEveryField() {
    Map<String, String> calls = new LinkedHashMap<>();
    calls.put("where: 'rand() % 2 = 0', check: v2.units <= v1.units", "where 'rand() % 2 = 0'; expected an expression without rand,");
    calls.put("check: [v2.units <= v1.units, 'v2.units <= v1.units + randConstant() % 2']",
        "check[1] 'v2.units <= v1.units + randConstant() % 2'; expected an expression without randConstant,");
    calls.put("delta: {amount: 'toDecimal64(NOW() > 0, 6)'}", "delta.amount 'toDecimal64(NOW() > 0, 6)'; expected an "
        + "expression without now,");
    calls.put("delta: {amount: 'toDecimal64(`today`() > 0, 6)'}", "delta.amount 'toDecimal64(`today`() > 0, 6)'; "
        + "expected an expression without today,");
    calls.put("check: 'v1.units > 0 AND current_timestamp > 0'", "check[0] 'v1.units > 0 AND current_timestamp > 0'; "
        + "expected an expression without current_timestamp,");
    for (var call : calls.entrySet()) {
      String sentence = "In the spec, rule 'r' has " + call.getValue() + " whose value changes from one run to the "
          + "next: a rule must classify the same key the same way every time it is judged.";
      assertEquals(sentence, refusedWhenLoaded(call.getKey()).getMessage());
      TableSpec spec = rule(call.getKey());
      var withoutV1 = assertThrows(InvalidInputException.class, () -> new Rules(sql, spec).compile(false));
      assertEquals(sentence, withoutV1.getMessage(), "parsing alone refuses it");
      assertEquals(sentence, assertThrows(InvalidInputException.class, () -> judged(spec)).getMessage());
    }
    engine.specs().checkRules(rule("where: \"v1.k != 'rand()'\", check: v2.units <= v1.units"));
  }
}
