package dev.cutover.engine.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.TableSpec.Allowance;
import dev.cutover.engine.tables.Transform;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transform is read as ClickHouse reads it: placeholders and function calls count only in
 * code, never inside quotes or comments, and each refusal says where.
 */
class TransformCheckTest {

  private static final String WHERE = "WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime}";

  /** The valid spec with its transform's WHERE line replaced. */
  private static String spec(String where) {
    return SpecLoaderTest.VALID.replace(WHERE, where);
  }

  private static String refused(String yaml) {
    return assertThrows(InvalidInputException.class, () -> SpecLoader.parse(yaml, "s.yaml")).getMessage();
  }

  private static final String PREFIX = "In the spec s.yaml, the transform ";

  @Test
  void aWindowPlaceholderInAStringLiteralIsRefusedWithItsPlace() {
    // Bound inside the quotes, it would split the literal and leave the driver one value short.
    assertEquals(PREFIX + "has {window_start} inside a string literal at line 2, column 67 of the transform, where it "
        + "binds nothing; write it outside quotes and comments (for example ts >= {window_start}), or remove it.",
        refused(spec("WHERE ts >= {window_start} AND ts < {window_end} AND '{window_start}' != ''")));
  }

  @Test
  void aPlaceholderInAnyKindOfCommentOrQuoteIsRefused() {
    String ok = "WHERE ts >= {window_start} AND ts < {window_end}";
    String[][] cases = {
        {ok + " -- from {window_end}", "a comment"},
        {ok + " # to {window_end}", "a comment"},
        {ok + " #! to {window_end}", "a comment"},
        {ok + " // to {window_end}", "a comment"},
        {ok + " /* a /* nested */ {window_end} */", "a block comment"},
        {ok + " AND site != `{clicks}`", "a quoted identifier"},
        {ok + " AND site != \"{window_start:DateTime}\"", "a quoted identifier"},
        {ok + " AND site != $$ {window_end} $$", "a heredoc string"},
        {ok + " AND site != $x$ {window_end} $x$", "a heredoc string"},
    };
    for (String[] c : cases) {
      // The transform's second line starts with "FROM clicks ", then the WHERE under test.
      int column = "FROM clicks ".length() + c[0].lastIndexOf('{') + 1;
      String message = refused(spec(c[0]));
      assertEquals(true, message.contains(" inside " + c[1] + " at line 2, column " + column + " of the transform, "
          + "where it binds nothing"), c[0] + " -> " + message);
    }
  }

  @Test
  void theWindowMustBeUsedInCodeNotOnlyInAComment() {
    assertEquals(PREFIX + "never uses {window_end} outside quotes and comments; expected a query that filters its "
        + "sources to the hour window with {window_start} and {window_end} (the engine binds both).",
        refused(spec("WHERE ts >= {window_start}\n  /* and ts < {window_end_} */")));
  }

  @Test
  void quotesAndCommentsThatHoldNoPlaceholderAreFineAndBindNothing() {
    TableSpec spec = SpecLoader.parse(spec("WHERE ts >= {window_start} AND ts < {window_end} -- the site's hour\n"
        + "  AND site NOT IN ('it''s ? {x}', 'a\\'b', $$ it's ? $$, `we?rd`) # it's done\n"
        + "  /* outer /* it's */ inner */ // it's over"), "s.yaml");
    Transform t = Transform.bind(spec, HourPartition.parse("h", "2026-01-01T00:00"),
        HourPartition.parse("h", "2026-01-01T01:00"));
    assertEquals(List.of(1767225600L, 1767229200L), t.values());
    assertEquals(true, t.sql().contains("NOT IN ('it''s ? {x}', 'a\\'b', ' it\\'s ? ', `we?rd`)"), t.sql());
    assertEquals(false, t.sql().contains("site's"), t.sql());
  }

  @Test
  void aQuestionMarkInCodeIsRefused() {
    assertEquals(PREFIX + "has a '?' at line 2, column 69 of the transform; the engine binds the window as '?' "
        + "parameters, so write if(condition, a, b) instead of condition ? a : b.",
        refused(spec("WHERE ts >= {window_start} AND ts < {window_end} AND (1 ? 1 : 0)")));
  }

  @Test
  void aStatementSeparatorIsRefusedWithItsPlace() {
    assertEquals(PREFIX + "has a ';' at line 2, column 61 of the transform; expected exactly one query, with no ';' "
        + "outside quotes.", refused(spec("WHERE ts >= {window_start} AND ts < {window_end}; DROP TABLE clicks")));
  }

  @Test
  void anUnclosedQuoteOrCommentIsRefused() {
    assertEquals(PREFIX + "opens a string literal at line 2, column 66 of the transform that never closes; close it, "
        + "or remove the stray quote.", refused(spec("WHERE ts >= {window_start} AND ts < {window_end} AND 'x")));
    assertEquals(PREFIX + "opens a block comment at line 2, column 62 of the transform that never closes; close it, "
        + "or remove the stray comment opener.",
        refused(spec("WHERE ts >= {window_start} AND ts < {window_end} /* x")));
  }

  @Test
  void nowIsRefusedInEverySpellingUnlessAllowed() {
    String ok = "WHERE ts >= {window_start} AND ts < {window_end}";
    for (String call : List.of("now()", "NOW ()", "`now`()", "now(\n  'UTC')")) {
      String message = refused(spec(ok + " AND ts < " + call));
      int column = "FROM clicks ".length() + ok.length() + 11 + (call.startsWith("`") ? 1 : 0);
      assertEquals(PREFIX + "calls now() at line 2, column " + column
          + " of the transform, whose result changes from run to run, so an hour computed again would not give the "
          + "same rows; compute from the sources and the hour window instead (for example {window_start} for the "
          + "hour), or, if the difference cannot reach v2's rows, allow it with a reason under allow_nondeterministic "
          + "(see docs/SPEC.md).", message, call);
    }
    // In a comment or a string, it calls nothing.
    SpecLoader.parse(spec(ok + " AND site != 'now()' -- now() and rand()"), "s.yaml");
    String allowed = spec(ok + " AND ts < now()") + "allow_nondeterministic:\n  - function: now\n"
        + "    reason: events are never stamped in the future, so the filter keeps every row\n";
    TableSpec spec = SpecLoader.parse(allowed, "s.yaml");
    assertEquals(List.of(new Allowance("now", "events are never stamped in the future, so the filter keeps every row")),
        spec.allowedNondeterministic());
  }

  @Test
  void eachListedFunctionIsRefused() {
    for (String f : Determinism.REFUSED) {
      String message = refused(spec("WHERE ts >= {window_start} AND ts < {window_end} AND " + f + "() IS NOT NULL"));
      assertEquals(true, message.contains(" calls " + f + "() at line 2"), message);
    }
  }

  @Test
  void anAllowanceIsValidated() {
    String base = spec("WHERE ts >= {window_start} AND ts < {window_end} AND rand() >= 0");
    assertEquals("In the spec s.yaml, field 'allow_nondeterministic[0].reason' is missing; expected a value (see "
        + "docs/SPEC.md).", refused(base + "allow_nondeterministic: [{function: rand}]"));
    assertEquals("In the spec s.yaml, field 'allow_nondeterministic[0].function' is 'sum'; expected one of the "
        + "non-deterministic functions Cutover refuses without a reason, such as now or rand (the list is in "
        + "docs/SPEC.md).", refused(base + "allow_nondeterministic: [{function: sum, reason: why not}]"));
    assertEquals("In the spec s.yaml, field 'allow_nondeterministic[1].function' is 'rand'; expected a function no "
        + "other allowance names.", refused(base + "allow_nondeterministic: [{function: rand, reason: a}, "
        + "{function: rand, reason: b}]"));
    assertEquals("In the spec s.yaml, field 'allow_nondeterministic[1].function' is 'today'; expected a function the "
        + "transform calls (it does not call today(), so remove the allowance).", refused(base
        + "allow_nondeterministic: [{function: rand(), reason: sampled only}, {function: today, reason: none}]"));
  }

  @Test
  void theBoundValuesMatchTheStatementBeforeAnythingRuns() {
    var e = assertThrows(InvalidInputException.class, () -> new Transform("SELECT 1 WHERE x = ? AND y = '?'",
        List.of(1L, 2L)));
    assertEquals("The transform's statement has 1 parameter mark(s) '?' outside quotes but the engine binds 2 "
        + "value(s), so it would run with the wrong window; write the transform without '?' and with {window_start} "
        + "and {window_end} outside quotes and comments.", e.getMessage());
  }
}
