package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replay effect suppression on the record: a dependent of v1 is acknowledged with the operator's reason, a
 * reason that says nothing is refused before anything is written, and the backfill writes each acknowledgement
 * to the audit trail, with who and when, before its first hour.
 */
class SideEffectAcknowledgementTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private String alerts;
  private String digest;

  @BeforeEach
  void aWorldWithTwoViewsOnV1() {
    world = HourlyWorld.create(TestEngine.freshDatabase(SideEffectAcknowledgementTest.class), 2);
    world.sql.execute("an alerting view", "CREATE MATERIALIZED VIEW alerts_mv ENGINE = MergeTree ORDER BY site AS "
        + "SELECT site, clicks FROM visits_v1 WHERE clicks > 100");
    world.sql.execute("a digest view", "CREATE MATERIALIZED VIEW digest_mv ENGINE = MergeTree ORDER BY site AS "
        + "SELECT site, count() AS hours FROM visits_v1 GROUP BY site");
    spec = world.spec();
    engine = new Engine(world.db);
    alerts = world.database + ".alerts_mv";
    digest = world.database + ".digest_mv";
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private Plan plan() {
    return engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
  }

  @Test
  void aReasonThatSaysNothingIsRefusedInASentenceBeforeAnythingIsWritten() {
    InvalidInputException blank = assertThrows(InvalidInputException.class,
        () -> new AcknowledgedDependent(alerts, "   "));
    assertEquals("reason", blank.field());
    assertEquals("Acknowledging " + alerts + " needs a written reason: why replaying history through it is safe, such "
        + "as 'its alerts for replayed hours are suppressed downstream'. It goes to the audit trail with your name and "
        + "the time when the backfill starts.", blank.getMessage());
    assertEquals("reason", assertThrows(InvalidInputException.class, () -> new AcknowledgedDependent(alerts, null))
        .field());

    InvalidInputException tooLong = assertThrows(InvalidInputException.class,
        () -> new AcknowledgedDependent(alerts, "x".repeat(501)));
    assertEquals("The reason for acknowledging " + alerts + " has 501 characters; keep it to 500: why replaying "
        + "history through it is safe, in a sentence or two.", tooLong.getMessage());
    assertEquals("x".repeat(500), new AcknowledgedDependent(alerts, " " + "x".repeat(500) + " ").reason(),
        "500 characters, once stripped, are kept");

    InvalidInputException twoLines = assertThrows(InvalidInputException.class,
        () -> new AcknowledgedDependent(alerts, "suppressed downstream\nand paged by hand"));
    assertEquals("The reason for acknowledging " + alerts + " has a line break or another control character; give it "
        + "on one line.", twoLines.getMessage());

    InvalidInputException nameless = assertThrows(InvalidInputException.class,
        () -> new AcknowledgedDependent(" ", "suppressed downstream"));
    assertEquals("acknowledge", nameless.field());

    // Nothing reached the server: no run, no repair, no v2, no line in the audit trail.
    assertEquals(List.of(), engine.backfills().runs(spec));
    assertEquals(Optional.empty(), engine.repairs().current(spec));
    assertEquals(List.of(), engine.repairs().audit(null, 100));
    assertEquals(0L, world.sql.queryLong("v2", "SELECT count() FROM system.tables WHERE database = ? AND name = "
        + "'visits_v2'", world.database));
  }

  @Test
  void theBackfillWritesEachAcknowledgementWithWhoAndWhyBeforeItsFirstHour() throws Exception {
    Plan plan = plan();
    String alertsReason = "alerts for replayed hours carry their hour; the pager drops those older than a day";
    Preflighted half = engine.plans().preflight(plan, List.of(new AcknowledgedDependent(alerts, alertsReason)));
    assertFalse(half.passed(), "the digest view is not acknowledged yet");
    assertEquals(List.of(digest), half.report().dependents().stream().filter(d -> !d.acknowledged())
        .map(PreflightReport.Dependent::name).toList());

    String digestReason = "the digest is rebuilt from v2 after the cutover";
    Preflighted checked = engine.plans().preflight(plan, List.of(new AcknowledgedDependent(alerts, alertsReason),
        new AcknowledgedDependent(digest, digestReason)));
    ClearedPlan cleared = checked.cleared().orElseThrow(() -> new AssertionError(checked.report().failures()));
    assertEquals(java.util.Map.of(alerts, Optional.of(alertsReason), digest, Optional.of(digestReason)),
        cleared.report().dependents().stream().collect(java.util.stream.Collectors.toMap(PreflightReport.Dependent::name,
            PreflightReport.Dependent::reason)), "the cleared plan carries each reason");

    RunRecord run = engine.backfills().start(cleared, BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.SUCCEEDED, run.state(), run.message());
    String repair = engine.repairs().current(spec).orElseThrow().id();

    // The audit trail, as any reader of it sees it: one line per dependent about the run, by the OS user.
    List<AuditEntry> trail = engine.repairs().audit(run.id(), 100);
    List<AuditEntry> lines = trail.stream().filter(a -> a.action().equals(SideEffectNotes.ACTION))
        .sorted(Comparator.comparing(AuditEntry::detail)).toList();
    assertEquals(List.of(alerts + " (reads visits_v1), acknowledged for repair " + repair + ": " + alertsReason,
        digest + " (reads visits_v1), acknowledged for repair " + repair + ": " + digestReason),
        lines.stream().map(AuditEntry::detail).toList());
    assertTrue(lines.stream().allMatch(a -> a.actor().equals(System.getProperty("user.name"))), lines.toString());

    // Written before any hour: no ledger entry and not the run's start is older than a line.
    Instant latestLine = lines.stream().map(AuditEntry::at).max(Comparator.naturalOrder()).orElseThrow();
    Instant firstHour = engine.backfills().ledger(run.id()).values().stream().map(LedgerEntry::at)
        .min(Comparator.naturalOrder()).orElseThrow();
    assertFalse(latestLine.isAfter(firstHour), "acknowledged at " + latestLine + ", first hour at " + firstHour);
    Instant started = trail.stream().filter(a -> a.action().equals("start")).findFirst().orElseThrow().at();
    assertFalse(latestLine.isAfter(started), "acknowledged at " + latestLine + ", started at " + started);

    // Read back for the screens: each with who, when, the dependent, the run, the repair and the reason.
    List<SideEffectAcknowledgement> read = engine.backfills().sideEffectAcknowledgements(spec).stream()
        .sorted(Comparator.comparing(SideEffectAcknowledgement::dependent)).toList();
    assertEquals(List.of(new SideEffectAcknowledgement(alerts, "visits_v1", alertsReason, run.id(), repair,
        lines.get(0).at(), lines.get(0).actor(), lines.get(0).host()), new SideEffectAcknowledgement(digest,
        "visits_v1", digestReason, run.id(), repair, lines.get(1).at(), lines.get(1).actor(), lines.get(1).host())),
        read);
  }

  @Test
  void aResumedRunWritesTheAcknowledgementsOfItsOwnPreflightAgain() throws Exception {
    Plan plan = plan();
    List<AcknowledgedDependent> first = List.of(new AcknowledgedDependent(alerts, "suppressed downstream"),
        new AcknowledgedDependent(digest, "rebuilt after the cutover"));
    var slow = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(200));
    var started = engine.backfills().start(engine.plans().preflight(slow, first).cleared().orElseThrow(),
        BackfillEvent.Listener.NONE);
    started.cancel();
    RunRecord cancelled = started.await();
    assertEquals(RunState.CANCELLED, cancelled.state(), cancelled.message());

    String resumedReason = "the pager is muted for the replay window";
    Plan resume = engine.plans().planResume(spec, cancelled.id(), s -> s.withRowsPerSecond(0));
    Preflighted checked = engine.plans().preflight(resume, List.of(new AcknowledgedDependent(alerts, resumedReason),
        new AcknowledgedDependent(digest, "rebuilt after the cutover")));
    RunRecord end = engine.backfills().start(checked.cleared().orElseThrow(), BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.SUCCEEDED, end.state(), end.message());
    assertEquals(plan.range(), end.range());
    List<String> alertReasons = engine.backfills().sideEffectAcknowledgements(spec).stream()
        .filter(a -> a.dependent().equals(alerts)).map(SideEffectAcknowledgement::reason).toList();
    assertEquals(List.of(resumedReason, "suppressed downstream"), alertReasons, "newest first: the resume's, then the start's");
  }
}
