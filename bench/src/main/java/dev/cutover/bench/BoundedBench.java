package dev.cutover.bench;

import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.SeedOptions;
import dev.cutover.app.demo.SeedProgress;
import dev.cutover.app.demo.SeedResult;
import dev.cutover.app.demo.Seeder;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Section 9: what a bounded bug costs to repair. A second demo world whose fee bug shipped ten days
 * before its live edge; the time of a backfill of those ten days alone, against the bounded repair of
 * the whole six months (the ten days recomputed, the rest carried from v1) through to its
 * reconciliation, in pairs whose first side alternates after one warm-up pair ({@link PairSeries});
 * then v2 against a full recompute of all six months, hour by hour.
 */
final class BoundedBench {

  private static final String DATABASE = "trading_bounded";
  private static final int BUG_DAYS = 10;
  /**
   * Pairs per series unless {@code bench.rounds} says otherwise: five, not the three a headline needs at least. The
   * pairs of one series spread from 0.93× to 1.26× (the carry alone, 2026-12-07) around medians within a tenth of
   * their targets, and a median of five moves less with one pair's moment than a median of three.
   */
  private static final int PAIRS = 5;


  /** The carry floor's table, of v1's structure. */
  private static final String CARRY_FLOOR_TABLE = "pnl_carry_floor";

  private final Session session;
  private final Engine engine;
  private final BenchSql sql;
  private final Report report;
  private final double scale;

  BoundedBench(Session session, Engine engine, BenchSql sql, Report report, double scale) {
    this.session = session;
    this.engine = engine;
    this.sql = sql;
    this.report = report;
    this.scale = scale;
  }

  void run() throws Exception {
    report.section("9. A bounded repair of " + BUG_DAYS + " affected days in six months, end to end, against a "
        + "backfill of those days alone");
    DemoWorld world = DemoWorld.in(DATABASE);
    Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS);
    SeedResult seeded = new Seeder(session.statements(), world).seed(new SeedOptions(SeedOptions.DEFAULT_SEED, scale,
        SeedOptions.DEFAULT_HISTORY_DAYS, end, BUG_DAYS), SeedProgress.NONE);
    TableSpec spec = DemoSpec.load(DATABASE);
    try {
      // Without the spec's rest between batches: it would lengthen the ten days' backfill by more than the link,
      // and flatter the ratio; in batches of a day, as section 1, which the spec's smaller ones would flatter too.
      BackfillSettings settings = engine.plans().defaults(spec).withRestPercent(0)
          .withBatchHours(Benchmarks.SPEED_BATCH_HOURS);
      Plan whole = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), settings);
      HourPartition boundary = whole.boundary();
      HourPartition bugFrom = HourPartition.of(seeded.state().bugFrom());
      HourRange affected = new HourRange(bugFrom, boundary);
      Repairs repairs = new Repairs(spec, settings, bugFrom, boundary, affected);

      // The world was seeded just before: the first pair would be the first work on its new files, with no drop
      // since. One pair, not counted, goes first, so that every timed side starts just after the other's drop.
      PairSeries.warmUp(repairs::floor, repairs::boundedEndToEnd, report);
      PairSeries endToEnd = new PairSeries("floor", "bounded repair");
      PairSeries backfillOnly = new PairSeries("floor", "bounded repair");
      PairSeries daysOnly = new PairSeries("floor", "bounded repair");
      PairSeries carryOnly = new PairSeries("floor", "bounded repair");
      PairSeries wholeReport = new PairSeries("floor", "bounded repair");
      List<String> verdicts = new ArrayList<>();
      int rounds = Integer.getInteger("bench.rounds", PAIRS);
      for (int round = 1; round <= rounds; round++) {
        PairSeries.Pair pair = endToEnd.run(repairs::floor, repairs::boundedEndToEnd);
        endToEnd.print(pair, report);
        backfillOnly.add(pair.withMeasured(repairs.lastBackfill));
        daysOnly.add(new PairSeries.Pair(pair.number(), pair.baselineFirst(), repairs.lastDaysAlone,
            repairs.lastBackfill));
        carryOnly.add(new PairSeries.Pair(pair.number(), pair.baselineFirst(), repairs.lastCarryFloor,
            repairs.lastCarry));
        verdicts.add(repairs.lastVerdict);
        wholeReport.add(pair.withMeasured(repairs.lastWhole));
      }
      // The carry alone: a bounded repair whose affected window is its last hour, against the floor of the hours it
      // carries (the ten days' too, but that hour).
      PairSeries carryAlone = new PairSeries("floor", "bounded repair");
      for (int round = 1; round <= rounds; round++) {
        carryAlone.print(carryAlone.run(repairs::carryFloorOfOneHourRepair, repairs::carryOfOneHourRepair), report);
      }
      // The carry's statements alone, outside a run: what the statements cost against the floor's, without the run's
      // checks, proof and ledger around them.
      PairSeries carryStatements = new PairSeries("floor", "statements");
      for (int round = 1; round <= rounds; round++) {
        carryStatements.print(carryStatements.run(repairs::carryFloor, repairs::carryStatementsAlone), report);
      }
      // The carry beside the recomputed days against its floor beside the same recompute: like with like.
      PairSeries carryBeside = new PairSeries("floor", "bounded repair");
      for (int round = 1; round <= rounds; round++) {
        carryBeside.print(carryBeside.run(repairs::carryFloorBesideDays, repairs::carryInside), report);
      }
      report.line("The floor = a backfill of the " + BUG_DAYS + " affected days alone, timed as `backfill "
          + "--acknowledge …` runs it (one preflight, then the run), then the carry's floor: the bounded repair's "
          + "carried hours linked from v1 into an empty table of v1's structure by `ALTER TABLE … ATTACH PARTITION ID "
          + "… FROM v1`, two statements at once, each half of the hours; the two "
          + "timed one after the other, their sum the floor. The bounded repair is timed as the backfill runs it, "
          + "then through its reconciliation's verdict (until the verdict is stored: the gate reads it from then; "
          + "v1's totals of the carried hours, for the report's charts, and its examples of explained keys are stored "
          + "after it, and the report is whole then); the carry inside it, from the run's start to the ledger's "
          + "last carried hour; the carry alone, the same in a bounded repair whose affected window is the hour before "
          + "the boundary, beside the floor of the hours it carries (the ten days' too, but that hour); the carry's "
          + "statements alone (`REPLACE PARTITION ID … FROM v1`, two at once, the floor's hours) outside a run, beside "
          + "the carry's floor; and the carry inside the bounded repair's backfill beside the carry's floor started as "
          + "a backfill of the affected days alone starts its first batch, so that both share the machine with the "
          + "same recompute. Each side starts just after the other's repair was "
          + "abandoned and its tables dropped; "
          + "in each pair the side that runs first alternates, pair 1 the floor, pair 2 the bounded repair, and so "
          + "on. Warm-up: one pair, not counted, before the timed ones, as the bounded world's first work after its "
          + "seeding. The median of the pairs stands, with their min and max:");
      report.table(PairSeries.COLUMNS.toArray(String[]::new));
      report.cells(backfillOnly.cells("the bounded repair's backfill / (the days alone + the carry's floor)")
          .toArray(String[]::new));
      report.cells(endToEnd.cells("the bounded repair to its verdict / (the days alone + the carry's floor)")
          .toArray(String[]::new));
      report.cells(wholeReport.cells("the bounded repair to its whole report / (the days alone + the carry's floor)")
          .toArray(String[]::new));
      report.cells(carryOnly.cells("the carry inside the bounded repair / the carry's floor").toArray(String[]::new));
      report.cells(daysOnly.cells("the bounded repair's backfill / the days alone (the former measure)")
          .toArray(String[]::new));
      report.cells(carryAlone.cells("the carry of a bounded repair of one hour (nothing else to compute) / the carry's "
          + "floor").toArray(String[]::new));
      report.cells(carryStatements.cells("the carry's statements alone, outside a run / the carry's floor")
          .toArray(String[]::new));
      report.cells(carryBeside.cells("the carry inside the bounded repair / the carry's floor beside the days' "
          + "recompute").toArray(String[]::new));
      report.line(String.format("The bounded repair's backfill is %.2f× (%.2f× to %.2f×) and, to its verdict, %.2f× "
          + "(%.2f× to %.2f×) the backfill of the affected days alone plus the carry's floor (target ≤ 1.1×), %.2f× "
          + "to its whole report; the "
          + "carry %.2f× its floor beside the recomputed days and %.2f× alone (target ≤ 1.1×), its statements alone "
          + "%.2f×; beside the recomputed days, %.2f× its floor beside the same recompute; its verdicts: %s.",
          backfillOnly.median(), backfillOnly.min(), backfillOnly.max(), endToEnd.median(), endToEnd.min(),
          endToEnd.max(), wholeReport.median(), carryOnly.median(), carryAlone.median(), carryStatements.median(),
          carryBeside.median(), String.join(", ", verdicts)));
      if (!repairs.v2IsBounded) {
        repairs.boundedEndToEnd();
        report.line("The pairs ended with the days alone: the bounded repair ran once more, untimed, for the "
            + "comparison below.");
      }
      compareWithFullRecompute(spec, repairs.boundedRange, seeded);
      withoutCarry(spec, affected, repairs.boundedRange);
    } finally {
      sql.execute("drop the bounded world", "DROP DATABASE IF EXISTS " + DATABASE + " SYNC");
    }
  }

  /**
   * The two sides of a pair on the bounded world, each starting from no repair and no v2: the last side's repair is
   * abandoned and its v2 dropped first. Keeps what the comparison after the pairs needs.
   */
  private final class Repairs {

    private final TableSpec spec;
    private final BackfillSettings settings;
    private final HourPartition bugFrom;
    private final HourPartition boundary;
    private final HourRange affected;
    private boolean repairOpen;
    /** Whether v2 holds what the last bounded repair wrote, and the range it covered. */
    private boolean v2IsBounded;
    private HourRange boundedRange;
    /** The last bounded repair's backfill alone, for its own ratio against the same pair's days alone, and its verdict. */
    private PairSeries.Timed lastBackfill;
    private String lastVerdict;
    private PairSeries.Timed lastWhole;
    /** The parts of the last floor, and the last bounded repair's carry, each for a ratio of its own. */
    private PairSeries.Timed lastDaysAlone;
    private PairSeries.Timed lastCarryFloor;
    private PairSeries.Timed lastCarry;

    Repairs(TableSpec spec, BackfillSettings settings, HourPartition bugFrom, HourPartition boundary,
        HourRange affected) {
      this.spec = spec;
      this.settings = settings;
      this.bugFrom = bugFrom;
      this.boundary = boundary;
      this.affected = affected;
    }

    /** The floor: the affected days alone, then the carry's floor; their times summed. */
    PairSeries.Timed floor() throws InterruptedException {
      lastDaysAlone = daysAlone();
      lastCarryFloor = carryFloor(affected);
      return new PairSeries.Timed(String.format("floor: the days alone (%.2f s) + the carry's floor (%.2f s)",
          lastDaysAlone.seconds(), lastCarryFloor.seconds()), lastDaysAlone.seconds() + lastCarryFloor.seconds(),
          lastDaysAlone.hours() + lastCarryFloor.hours(), 0);
    }

    /**
     * The carry's floor as a side of its own pair: the hours a bounded repair carries, linked from v1 into an empty table
     * of v1's structure, two statements at once; the table is dropped after, untimed. It starts, as the other side of its
     * pair does, just after the bounded repair's tables are dropped ({@link #reset}): kept until the next bounded side
     * dropped them, the last v2 made every carry follow a drop of some 4,400 parts by a second while its floor followed
     * none, and links cost more just after drops (docs/BENCHMARKS.md, note 7).
     */
    PairSeries.Timed carryFloor() throws InterruptedException {
      reset();
      return carryFloor(affected);
    }

    /**
     * The floor of the carry alone: the hours the bounded repair of the hour before the boundary carries (the ten
     * days' hours too but that one), linked as {@link #carryFloor()} links the bounded repair's, after the same drop.
     */
    PairSeries.Timed carryFloorOfOneHourRepair() throws InterruptedException {
      reset();
      return carryFloor(oneHour());
    }

    private PairSeries.Timed carryFloor(HourRange window) throws InterruptedException {
      List<String> ids = prepareCarryFloor(window);
      long t0 = System.nanoTime();
      linkCarried(ids);
      double took = seconds(t0);
      dropCarryFloor();
      return new PairSeries.Timed("the carry's floor: " + ids.size() + " hours of v1 linked, two statements at once",
          took, ids.size(), 0);
    }

    /**
     * The carry's floor beside the recompute of the affected days: the same two statements as {@link #carryFloor},
     * started as the days' backfill starts its first batch, so that they share the machine as the bounded repair's
     * carry shares it with its recomputed hours; timed from their start to their end.
     */
    PairSeries.Timed carryFloorBesideDays() throws Exception {
      reset();
      List<String> ids = prepareCarryFloor(affected);
      Plan days = engine.plans().plan(spec, Optional.of(bugFrom), Optional.of(boundary), Optional.of(boundary),
          settings);
      java.util.concurrent.CompletableFuture<Double> linked = new java.util.concurrent.CompletableFuture<>();
      java.util.concurrent.atomic.AtomicBoolean begun = new java.util.concurrent.atomic.AtomicBoolean();
      BackfillEvent.Listener firstBatch = event -> {
        if (event instanceof BackfillEvent.BatchStarted && begun.compareAndSet(false, true)) {
          Thread.ofPlatform().name("carry-floor").start(() -> {
            try {
              long t0 = System.nanoTime();
              linkCarried(ids);
              linked.complete(seconds(t0));
            } catch (Throwable e) {
              linked.completeExceptionally(e);
            }
          });
        }
      };
      RunRecord alone = engine.backfills().start(Benchmarks.cleared(engine, days, Benchmarks.dependents(engine, days)),
          firstBatch).await();
      repairOpen = true;
      v2IsBounded = false;
      check(alone);
      double took = linked.get(10, java.util.concurrent.TimeUnit.MINUTES);
      dropCarryFloor();
      return new PairSeries.Timed("the carry's floor beside the backfill of the " + BUG_DAYS + " affected days: "
          + ids.size() + " hours of v1 linked, two statements at once", took, ids.size(), 0);
    }

    /** The bounded repair's backfill, not reconciled: the carry inside it, from the run's start to its last hour. */
    PairSeries.Timed carryInside() throws InterruptedException {
      reset();
      Plan bounded = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
          Optional.of(affected), settings);
      RunRecord run = engine.backfills().start(Benchmarks.cleared(engine, bounded, Benchmarks.dependents(engine,
          bounded)), BackfillEvent.Listener.NONE).await();
      repairOpen = true;
      v2IsBounded = false;
      check(run);
      return new PairSeries.Timed("the carry inside the bounded repair", carrySpan(run), bounded.carried().size(), 0);
    }

    /**
     * An empty table of v1's structure for the carry's floor; the partitions of v1 that a bounded repair whose affected
     * window is {@code window} carries.
     */
    private List<String> prepareCarryFloor(HourRange window) {
      Plan bounded = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
          Optional.of(window), settings);
      String live = spec.qualified(spec.liveTable());
      dropCarryFloor();
      sql.execute("create the carry floor", "CREATE TABLE " + carryFloorTable() + " AS " + live);
      java.util.Set<String> held = new java.util.HashSet<>(sql.query("v1's partitions", "SELECT DISTINCT partition_id "
          + "FROM system.parts WHERE database = ? AND table = ? AND active", row -> row.string(1),
          spec.database().name(), spec.liveTable().name()));
      return bounded.carried().stream().map(HourPartition::partitionId).filter(held::contains).toList();
    }

    /**
     * The carry's statements as the bounded repair's lane runs them ({@code REPLACE PARTITION ID … FROM v1}, with its
     * settings), outside a run: the hours of the carry's floor into a v2 created empty {@code AS} v1, two statements at
     * once, each half of the hours; v2 is dropped after, untimed.
     */
    PairSeries.Timed carryStatementsAlone() throws InterruptedException {
      reset();
      List<String> ids = prepareCarryFloor(affected);
      dropCarryFloor();
      String v2 = spec.qualified(spec.targetTable());
      sql.execute("create v2", "CREATE TABLE " + v2 + " AS " + spec.qualified(spec.liveTable()));
      v2IsBounded = false;
      long t0 = System.nanoTime();
      link(ids, v2, "REPLACE", " SETTINGS allow_replace_partition_from_empty_source = 1");
      double took = seconds(t0);
      sql.execute("drop v2", "DROP TABLE IF EXISTS " + v2 + " SYNC");
      return new PairSeries.Timed("the carry's statements alone: " + ids.size() + " hours of v1, two `REPLACE PARTITION` "
          + "statements at once, outside a run", took, ids.size(), 0);
    }

    /** Links {@code ids} from v1 into the carry floor's table: two statements at once, each half of the hours. */
    private void linkCarried(List<String> ids) throws InterruptedException {
      link(ids, carryFloorTable(), "ATTACH", "");
    }

    /**
     * Links {@code ids} from v1 into {@code target} by {@code verb} ({@code ATTACH} or {@code REPLACE}) {@code PARTITION
     * ID … FROM v1}: two statements at once, each half of the hours, each ending in {@code settings}.
     */
    private void link(List<String> ids, String target, String verb, String settings) throws InterruptedException {
      String live = spec.qualified(spec.liveTable());
      java.util.Queue<List<String>> statements = new java.util.concurrent.ConcurrentLinkedQueue<>();
      // Two statements, each half of the hours: at some 60 characters an hour, within the server's query size limit
      // for up to 4,000 hours a statement.
      int half = Math.max(1, -Math.floorDiv(-ids.size(), 2));
      for (int i = 0; i < ids.size(); i += half) {
        statements.add(ids.subList(i, Math.min(ids.size(), i + half)));
      }
      try (var workers = java.util.concurrent.Executors.newFixedThreadPool(2)) {
        List<java.util.concurrent.Future<?>> both = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
          both.add(workers.submit(() -> {
            for (List<String> part = statements.poll(); part != null; part = statements.poll()) {
              sql.execute("link carried hours", "ALTER TABLE " + target + " " + String.join(", ",
                  part.stream().map(id -> verb + " PARTITION ID '" + id + "' FROM " + live).toList()) + settings);
            }
          }));
        }
        for (var f : both) {
          f.get();
        }
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }

    private void dropCarryFloor() {
      sql.execute("drop the carry floor", "DROP TABLE IF EXISTS " + carryFloorTable() + " SYNC");
    }

    private String carryFloorTable() {
      return spec.qualified(dev.cutover.engine.api.Identifier.of(CARRY_FLOOR_TABLE));
    }

    /**
     * The carry of a bounded repair whose affected window is the hour before the boundary alone: from the run's start
     * to the ledger's last carried hour, almost nothing beside it to compute.
     */
    PairSeries.Timed carryOfOneHourRepair() throws InterruptedException {
      reset();
      Plan bounded = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
          Optional.of(oneHour()), settings);
      RunRecord run = engine.backfills().start(Benchmarks.cleared(engine, bounded, Benchmarks.dependents(engine,
          bounded)), BackfillEvent.Listener.NONE).await();
      repairOpen = true;
      v2IsBounded = false;
      check(run);
      return new PairSeries.Timed("the carry of a bounded repair of one hour", carrySpan(run), bounded.carried().size(),
          0);
    }

    /** The affected window of the carry alone: the hour before the boundary. */
    private HourRange oneHour() {
      return new HourRange(boundary.plusHours(-1), boundary);
    }

    /** From the run's start to the ledger's last carried hour. */
    private double carrySpan(RunRecord run) {
      java.time.Instant lastCarried = engine.backfills().ledger(run.id()).values().stream().filter(e -> e.carried())
          .map(e -> e.at()).max(java.time.Instant::compareTo).orElseThrow();
      return Math.max(0, java.time.Duration.between(run.created(), lastCarried).toNanos() / 1e9);
    }

    /** A backfill of the affected days alone, below the same boundary. */
    PairSeries.Timed daysAlone() throws InterruptedException {
      reset();
      Plan days = engine.plans().plan(spec, Optional.of(bugFrom), Optional.of(boundary), Optional.of(boundary),
          settings);
      List<AcknowledgedDependent> acknowledged = Benchmarks.dependents(engine, days);
      long t0 = System.nanoTime();
      RunRecord alone = engine.backfills().start(Benchmarks.cleared(engine, days, acknowledged),
          BackfillEvent.Listener.NONE).await();
      double took = seconds(t0);
      repairOpen = true;
      v2IsBounded = false;
      check(alone);
      return new PairSeries.Timed("backfill of the " + BUG_DAYS + " affected days alone (" + days.hours().size()
          + " hours recomputed)", took, days.hours().size(), 0);
    }

    /** The bounded repair of the whole six months through to its reconciliation's verdict. */
    PairSeries.Timed boundedEndToEnd() throws InterruptedException {
      reset();
      Plan bounded = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
          Optional.of(affected), settings);
      List<AcknowledgedDependent> acknowledged = Benchmarks.dependents(engine, bounded);
      long t0 = System.nanoTime();
      RunRecord run = engine.backfills().start(Benchmarks.cleared(engine, bounded, acknowledged),
          BackfillEvent.Listener.NONE).await();
      double backfilled = seconds(t0);
      repairOpen = true;
      check(run);
      // To its verdict: until the reconciliation stored it (the gate and every status read it from then); its report
      // is whole once v1's totals of the carried hours, for the charts, are stored after.
      long[] verdictAt = {0};
      Reconciliation verdict = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, Optional.empty(),
          10_000, new dev.cutover.engine.api.Progress() {
            @Override
            public void update(String step, double fraction) {}

            @Override
            public void recorded(String what) {
              verdictAt[0] = System.nanoTime();
            }
          });
      double whole = seconds(t0);
      double total = (verdictAt[0] - t0) / 1e9;
      // Read after the reconciliation, whose time it would count in otherwise.
      lastCarry = new PairSeries.Timed("the carry inside the bounded repair", carrySpan(run), bounded.carried().size(),
          0);
      v2IsBounded = true;
      boundedRange = bounded.range();
      String hours = String.format("%d hours (%d recomputed, %d carried from v1)", bounded.hours().size(),
          bounded.computed().size(), bounded.carried().size());
      String result = verdict.verdict().name().toLowerCase();
      lastVerdict = result;
      lastBackfill = new PairSeries.Timed("bounded repair: its backfill of " + hours, backfilled,
          bounded.hours().size(), 0);
      lastWhole = new PairSeries.Timed("bounded repair to its whole report: " + hours, whole, bounded.hours().size(), 0);
      return new PairSeries.Timed(String.format("bounded repair end to end: its backfill of %s, %.2f s, then its "
          + "reconciliation (%s)", hours, backfilled, result), total, bounded.hours().size(), 0);
    }

    /** Abandons the last side's repair, if any, and drops its v2, untimed. */
    private void reset() {
      if (repairOpen) {
        engine.repairs().abandon(spec, spec.targetTable().name(), "benchmark: the other side of the pair is measured "
            + "next");
        repairOpen = false;
      }
      sql.execute("drop v2", "DROP TABLE IF EXISTS " + spec.qualified(spec.targetTable()) + " SYNC");
    }
  }

  /**
   * The design without a carry: consumers would read v1 outside the affected window and v2 inside it, through one
   * view over both. The repair would be the backfill of the affected days alone (its time is the floor's first part
   * above); what it would cost instead is every read of the consumers. Timed here: two reads a consumer makes, each
   * through such a view and through a view over the carried v2, in alternating pairs.
   */
  private void withoutCarry(TableSpec spec, HourRange affected, HourRange range) {
    String v1 = spec.qualified(spec.liveTable());
    String v2 = spec.qualified(spec.targetTable());
    String composed = spec.qualified(dev.cutover.engine.api.Identifier.of("pnl_composed"));
    String carried = spec.qualified(dev.cutover.engine.api.Identifier.of("pnl_carried"));
    String time = spec.timeColumn().name();
    sql.execute("create the composed view", "CREATE OR REPLACE VIEW " + composed + " AS SELECT * FROM " + v1
        + " WHERE " + time + " < toDateTime(" + affected.from().epochSecond() + ", 'UTC') UNION ALL SELECT * FROM " + v2
        + " WHERE " + time + " >= toDateTime(" + affected.from().epochSecond() + ", 'UTC')");
    sql.execute("create the carried view", "CREATE OR REPLACE VIEW " + carried + " AS SELECT * FROM " + v2);
    HourPartition oneHour = range.from().plusHours(range.hours() / 2);
    String hourly = "SELECT count(), toString(sum(p)), toString(sum(n)) FROM (SELECT toStartOfHour(" + time + ") AS h, "
        + "sum(pnl_usd) AS p, sum(notional_usd) AS n FROM %s GROUP BY h)";
    String hour = "SELECT count(), toString(sum(p)) FROM (SELECT book, sum(pnl_usd) AS p FROM %s WHERE " + time
        + " >= toDateTime(" + oneHour.epochSecond() + ", 'UTC') AND " + time + " < toDateTime("
        + oneHour.plusHours(1).epochSecond() + ", 'UTC') GROUP BY book)";
    report.line("The design without a carry: the repair would be the backfill of the affected days alone; consumers "
        + "would read v1 before the affected window and v2 from it on, through one view (`… FROM v1 WHERE hour < A "
        + "UNION ALL … FROM v2 WHERE hour >= A`). Two reads a consumer makes, through that view and through a view "
        + "over the carried v2, alternating which goes first, 20 pairs each:");
    report.table(PairSeries.COLUMNS.toArray(String[]::new));
    for (String[] read : List.of(new String[] {"every hour's totals of the window", hourly},
        new String[] {"one hour's totals by book (" + oneHour + ")", hour})) {
      PairSeries pairs = new PairSeries("carried v2", "v1 and v2");
      try {
        for (int i = 0; i < 20; i++) {
          pairs.run(() -> timedRead(read[1].formatted(carried)), () -> timedRead(read[1].formatted(composed)));
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      report.cells(pairs.cells(read[0] + ": through v1 and v2 / through the carried v2").toArray(String[]::new));
    }
    sql.execute("drop the composed view", "DROP VIEW IF EXISTS " + composed);
    sql.execute("drop the carried view", "DROP VIEW IF EXISTS " + carried);
  }

  private PairSeries.Timed timedRead(String text) {
    long t0 = System.nanoTime();
    long groups = sql.queryLong("read", text);
    return new PairSeries.Timed("read", seconds(t0), groups, 0);
  }

  /** v2 against the corrected transform of every hour, computed from scratch into a table of its own. */
  private void compareWithFullRecompute(TableSpec spec, HourRange range, SeedResult seeded) {
    String full = spec.qualified(dev.cutover.engine.api.Identifier.of("pnl_full"));
    sql.execute("drop full", "DROP TABLE IF EXISTS " + full + " SYNC");
    sql.execute("create full", "CREATE TABLE " + full + " AS " + spec.qualified(spec.liveTable()));
    DayInserts.run(sql, spec, range, full, "");
    String sums = "SELECT toStartOfHour(hour) AS h, count() AS n, sum(cityHash64(hour, book, instrument, currency, "
        + "quantity, notional_usd, fees_usd, pnl_usd, trade_count)) AS c FROM %s WHERE hour >= toDateTime(?, 'UTC') "
        + "AND hour < toDateTime(?, 'UTC') GROUP BY h";
    List<Object> values = List.of(range.from().epochSecond(), range.to().epochSecond(), range.from().epochSecond(),
        range.to().epochSecond());
    String differing = "SELECT %s FROM (" + sums.formatted(spec.qualified(spec.targetTable())) + ") AS a FULL OUTER JOIN ("
        + sums.formatted(full) + ") AS b ON a.h = b.h WHERE a.n != b.n OR a.c != b.c";
    long apart = sql.queryLong("count differing hours", differing.formatted("count()"), values.toArray());
    long incidentApart = seeded.state().incidentHour().map(i -> sql.queryLong("is the incident hour among them",
        differing.formatted("countIf(toUnixTimestamp(if(a.n = 0, b.h, a.h)) = " + i.getEpochSecond() + ")"),
        values.toArray())).orElse(0L);
    long hours = sql.queryLong("hours", "SELECT uniqExact(toStartOfHour(hour)) FROM " + full);
    report.line(String.format("v2 against a full recompute of all %,d hours (%,d with rows), hour by hour (rows and "
        + "checksum): %d hour(s) differ%s.", range.hours(), hours, apart, apart == 0 ? ""
            : apart == incidentApart ? ", the demo's incident hour (a retried append in v1, before the bug), which the "
                + "bounded repair carries as v1 holds it and a full recompute corrects"
            : ", " + incidentApart + " of them the incident hour"));
    sql.execute("drop full", "DROP TABLE IF EXISTS " + full + " SYNC");
  }

  private static void check(RunRecord run) {
    if (run.state() != RunState.SUCCEEDED) {
      throw new IllegalStateException("the backfill " + run.state().name().toLowerCase() + ": " + run.message());
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
