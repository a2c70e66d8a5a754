package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Gate.Condition;
import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.backfill.LiveReader;
import dev.cutover.engine.backfill.TargetTables;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Switches consumers between v1 and v2 in one atomic statement, {@code EXCHANGE TABLES view AND
 * view__next}, behind a gate; switches them back the same way while v1 is retained; and computes
 * how long v1 must be kept.
 */
public final class Cutover {

  /** How old the latest reconciliation may be for the gate. */
  public static final Duration RECONCILIATION_FRESHNESS = Duration.ofHours(6);

  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final TargetTables tables;

  public Cutover(Sql sql, StateStore state, ReportStore reports, TableSpec spec) {
    this.sql = sql;
    this.state = state;
    this.reports = reports;
    this.spec = spec;
    this.tables = new TargetTables(sql, spec);
  }

  public Identifier nextView() {
    return Identifier.simple("next view", spec.consumerView().name() + "__next");
  }

  /** The one statement that switches consumers, both ways. */
  public String statement() {
    return "EXCHANGE TABLES " + spec.qualified(spec.consumerView()) + " AND " + spec.qualified(nextView());
  }

  /** Which version the consumer view reads now. */
  public Version current() {
    String query = asSelect(spec.consumerView());
    if (mentions(query, spec.targetTable().name())) {
      return Version.V2;
    }
    return mentions(query, spec.liveTable().name()) ? Version.V1 : Version.UNKNOWN;
  }

  public Gate gate() {
    String target = Backfill.target(spec);
    Version current = current();
    if (!tables.exists(spec.liveTable())) {
      return new Gate(List.of(new Condition(Gate.V1_KEPT, false, spec.liveTable() + " was dropped: consumers of "
          + spec.consumerView() + " read " + spec.targetTable() + " for good, and there is nothing to cut over or roll "
          + "back.")), current);
    }
    List<Condition> conditions = new ArrayList<>();
    conditions.add(new Condition("consumers read v1", current == Version.V1, switch (current) {
      case V1 -> spec.consumerView() + " reads " + spec.liveTable() + ".";
      case V2 -> spec.consumerView() + " already reads " + spec.targetTable() + ": the cutover happened; roll back first "
          + "to cut over again.";
      case UNKNOWN -> spec.consumerView() + " reads neither " + spec.liveTable() + " nor " + spec.targetTable() + ".";
    }));
    var latest = reports.latest(target);
    conditions.add(latest.map(r -> {
      boolean fresh = r.created().plus(RECONCILIATION_FRESHNESS).isAfter(Instant.now());
      boolean ok = r.verdict().allowsCutover() && fresh;
      return new Condition("reconciliation", ok, "The latest reconciliation, " + r.id() + " of " + r.created() + ", is "
          + r.verdict().name().toLowerCase() + (r.acknowledged() > 0 ? " with " + r.acknowledged() + " acknowledged" : "")
          + (fresh ? "" : ", and older than " + RECONCILIATION_FRESHNESS.toHours() + " hours: reconcile again") + ".");
    }).orElse(new Condition("reconciliation", false, "No reconciliation has run for " + target + "; reconcile first.")));
    LiveStatus live = new LiveReader(sql, spec).read();
    Optional<RunRecord> run = state.runs(target).stream().filter(r -> r.state().name().equals("SUCCEEDED")).findFirst();
    if (run.isPresent() && live.targetEdge().isPresent()) {
      long overlap = Duration.between(run.get().boundary().start(), live.targetEdge().get().end()).toHours();
      conditions.add(new Condition("overlap", overlap >= spec.minimumOverlap().toHours(), "v1 and v2 were both written "
          + "live for " + Math.max(0, overlap) + " hours since the boundary " + run.get().boundary() + "; at least "
          + spec.minimumOverlap().toHours() + " are required."));
    } else {
      conditions.add(new Condition("overlap", false, run.isEmpty() ? "No backfill of " + target + " has succeeded."
          : "The corrected live writer has written nothing to " + spec.targetTable() + " yet."));
    }
    boolean caughtUp = live.targetEdge().isPresent() && live.liveEdge().isPresent()
        && !live.targetEdge().get().isBefore(live.liveEdge().get());
    conditions.add(new Condition("v2 caught up", caughtUp, "Newest hour in v1 " + live.liveEdge().map(Object::toString)
        .orElse("none") + ", in v2 " + live.targetEdge().map(Object::toString).orElse("none") + "."));
    var active = state.activeRun(target, Instant.now());
    conditions.add(new Condition("no backfill running", active.isEmpty(), active.map(r -> "Run " + r.id() + " is "
        + r.state().name().toLowerCase() + " on " + target + ".").orElse("No backfill is running on " + target + ".")));
    String engine = sql.query("read the database engine", "SELECT engine FROM system.databases WHERE name = ?",
        rs -> rs.getString(1), spec.database().name()).stream().findFirst().orElse("missing");
    conditions.add(new Condition("Atomic database", engine.equals("Atomic") || engine.equals("Replicated"),
        "Database " + spec.database() + " uses the " + engine + " engine" + (engine.equals("Atomic") ? "." :
            "; EXCHANGE TABLES needs Atomic.")));
    return new Gate(conditions, current);
  }

  /** Switches consumers to v2. {@code confirmation} must be the consumer view's name, typed by the operator. */
  public SwapResult cutover(String confirmation) {
    confirm(confirmation, "cutover");
    Gate gate = gate();
    if (gate.current() == Version.V2) {
      throw new InvalidInputException("cutover", "Consumers already read " + spec.targetTable() + " through "
          + spec.consumerView() + "; a second cutover would switch them back. Use rollback for that.");
    }
    if (!gate.open()) {
      throw new InvalidInputException("gate", "The cutover is refused: " + gate.unmet().stream()
          .map(c -> c.name() + " (" + c.detail() + ")").reduce((a, b) -> a + "; " + b).orElse("") + "");
    }
    String next = asSelect(spec.consumerView());
    String rewritten = replaceTable(next, spec.liveTable().name(), spec.targetTable().name());
    sql.execute("prepare " + nextView(), "CREATE OR REPLACE VIEW " + spec.qualified(nextView()) + " AS " + rewritten);
    return swap("cutover", Version.V1, Version.V2, spec.targetTable());
  }

  /** Switches consumers back to v1, while it is retained. */
  public SwapResult rollback(String confirmation) {
    confirm(confirmation, "rollback");
    Version current = current();
    if (current != Version.V2) {
      throw new InvalidInputException("rollback", "Consumers read " + (current == Version.V1 ? spec.liveTable()
          : "neither version") + " through " + spec.consumerView() + "; there is no cutover to roll back.");
    }
    if (!tables.exists(spec.liveTable()) || !tables.exists(nextView())) {
      throw new InvalidInputException("rollback", "v1 (" + spec.liveTable() + ") or the rollback handle " + nextView()
          + " no longer exists, so consumers cannot be switched back.");
    }
    return swap("rollback", Version.V2, Version.V1, spec.liveTable());
  }

  private SwapResult swap(String action, Version before, Version after, Identifier nowRead) {
    state.ensureSchema();
    reports.ensureSchema();
    Instant at = Instant.now();
    // The intent is written first: a process killed right after the exchange still leaves a trace of it.
    reports.recordSwap(new ReportStore.SwapRecord(Backfill.target(spec), action, at, Operator.user(), statement(),
        "requested: " + before + " -> " + after));
    long started = System.nanoTime();
    sql.execute(action + " " + spec.consumerView(), statement());
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    HourPartition hour = recentHour(nowRead);
    String verification = verify(hour, nowRead);
    reports.recordSwap(new ReportStore.SwapRecord(Backfill.target(spec), action, at, Operator.user(), statement(),
        verification));
    state.audit(Backfill.target(spec), action, statement() + " by " + Operator.user() + " on " + Operator.host() + ": "
        + before + " -> " + after + "; " + verification);
    return new SwapResult(action, statement(), before, after, at, took, hour, verification);
  }

  private HourPartition recentHour(Identifier table) {
    long seconds = sql.queryLong("find a recent hour", "SELECT toUnixTimestamp(max(toStartOfHour(" + spec.timeColumn().quoted()
        + "))) FROM " + spec.qualified(table));
    return seconds > 0 ? HourPartition.ofEpochSecond(seconds) : HourPartition.containing(Instant.now());
  }

  /** Does the consumer view return exactly what {@code expected} holds for the hour? */
  private String verify(HourPartition hour, Identifier expected) {
    String probe = "SELECT count(), reinterpretAsInt64(sum(cityHash64(*))) FROM %s WHERE toStartOfHour("
        + spec.timeColumn().quoted() + ") = toDateTime(?, 'UTC')";
    String viewSays = sql.queryOne("read " + spec.consumerView(), probe.formatted(spec.qualified(spec.consumerView())),
        rs -> rs.getLong(1) + ":" + rs.getLong(2), hour.epochSecond());
    String tableSays = sql.queryOne("read " + expected, probe.formatted(spec.qualified(expected)),
        rs -> rs.getLong(1) + ":" + rs.getLong(2), hour.epochSecond());
    return viewSays.equals(tableSays)
        ? "verified: " + spec.consumerView() + " returns " + expected + "'s rows for " + hour + " (" + viewSays.split(":")[0]
            + " rows, same checksum)"
        : "NOT verified: for " + hour + " " + spec.consumerView() + " returns " + viewSays + " and " + expected + " holds "
            + tableSays + " (rows:checksum); investigate before anything else";
  }

  /** How long v1 must be kept after the cutover, from the spec's consumers and windows. */
  public Retention retention() {
    var consumer = spec.consumers().stream().max(Comparator.comparing(TableSpec.Consumer::cacheLifetime));
    Duration cache = consumer.map(TableSpec.Consumer::cacheLifetime).orElse(Duration.ZERO);
    Optional<Instant> cutoverAt = Optional.empty();
    if (current() == Version.V2) {
      cutoverAt = reports.swaps(Backfill.target(spec)).stream().filter(s -> s.action().equals("cutover"))
          .map(ReportStore.SwapRecord::at).max(Comparator.naturalOrder());
    }
    Duration total = cache.plus(spec.minimumOverlap()).plus(spec.retentionMargin());
    Optional<Instant> droppedAt = tables.exists(spec.liveTable()) ? Optional.empty()
        : reports.swaps(Backfill.target(spec)).stream().filter(s -> s.action().equals("drop-v1"))
            .map(ReportStore.SwapRecord::at).max(Comparator.naturalOrder());
    return new Retention(cutoverAt, cache, consumer.map(TableSpec.Consumer::name).orElse("none"), spec.minimumOverlap(),
        spec.retentionMargin(), cutoverAt.map(t -> t.plus(total)), droppedAt);
  }

  /** The statements that drop v1 and the rollback handle, exactly as {@link #dropV1} runs them. */
  public List<String> dropStatements() {
    return List.of("DROP VIEW IF EXISTS " + spec.qualified(nextView()), "DROP TABLE IF EXISTS " + spec.qualified(spec.liveTable()));
  }

  /** Drops v1 and the rollback handle; refused before the retention horizon unless forced with a reason. */
  public List<String> dropV1(boolean force, String reason) {
    Retention r = retention();
    if (r.droppedAt().isPresent()) {
      throw new InvalidInputException("drop-v1", spec.liveTable() + " was dropped already, at " + r.droppedAt().get()
          + ".");
    }
    if (r.cutoverAt().isEmpty()) {
      throw new InvalidInputException("drop-v1", "Consumers still read " + spec.liveTable() + "; v1 can be dropped only "
          + "after the cutover.");
    }
    if (r.keepUntil().get().isAfter(Instant.now()) && !force) {
      throw new InvalidInputException("drop-v1", "v1 must be kept until " + r.keepUntil().get() + " (the longest consumer "
          + "cache, " + r.longestCacheConsumer() + " " + r.longestCache().toHours() + " h, plus the reconciliation window "
          + r.reconciliationWindow().toHours() + " h and a margin of " + r.margin().toHours() + " h); dropping it earlier "
          + "removes the rollback. Wait, or force it with a written reason.");
    }
    if (force && (reason == null || reason.isBlank())) {
      throw new InvalidInputException("reason", "Dropping v1 before its retention horizon needs a written reason "
          + "(why it cannot wait), which goes to the audit trail.");
    }
    state.ensureSchema();
    reports.ensureSchema();
    List<String> dropped = new ArrayList<>();
    List<String> statements = dropStatements();
    sql.execute("drop " + nextView(), statements.get(0));
    dropped.add(spec.database() + "." + nextView());
    sql.execute("drop " + spec.liveTable(), statements.get(1));
    dropped.add(spec.database() + "." + spec.liveTable());
    String why = force ? "forced before " + r.keepUntil().get() + ": " + reason : "after the retention horizon " + r.keepUntil().get();
    reports.recordSwap(new ReportStore.SwapRecord(Backfill.target(spec), "drop-v1", Instant.now(), Operator.user(),
        "DROP TABLE " + spec.qualified(spec.liveTable()), why));
    state.audit(Backfill.target(spec), "drop-v1", "dropped " + dropped + " " + why);
    return dropped;
  }

  /** Drops staging and scratch tables left by runs and samples; run records stay. */
  public List<String> cleanup() {
    var active = state.activeRun(Backfill.target(spec), Instant.now());
    if (active.isPresent()) {
      throw new InvalidInputException("cleanup", "Run " + active.get().id() + " is still running on "
          + Backfill.target(spec) + " and uses its staging tables; clean up after it ends.");
    }
    List<String> names = sql.query("list leftover tables", "SELECT name FROM system.tables WHERE database = ? AND "
        + "(startsWith(name, ?) OR startsWith(name, ?))", rs -> rs.getString(1), spec.database().name(),
        spec.targetTable().name() + "__stg_", spec.targetTable().name() + "__sample_");
    for (String name : names) {
      sql.execute("drop " + name, "DROP TABLE IF EXISTS " + spec.qualified(Identifier.of(name)));
    }
    state.ensureSchema();
    state.audit(Backfill.target(spec), "cleanup", names.isEmpty() ? "nothing to drop" : "dropped " + names);
    return names;
  }

  private void confirm(String confirmation, String action) {
    if (!spec.consumerView().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To " + action + ", confirm with the consumer view's name, "
          + spec.consumerView() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '" + confirmation
              + "')") + ".");
    }
  }

  private String asSelect(Identifier view) {
    return sql.query("read the definition of " + view, "SELECT as_select FROM system.tables WHERE database = ? AND name = ?",
        rs -> rs.getString(1), spec.database().name(), view.name()).stream().findFirst()
        .orElseThrow(() -> new InvalidInputException("spec.tables.consumer_view", "The consumer view " + spec.database()
            + "." + view + " does not exist."));
  }

  static boolean mentions(String query, String table) {
    return Pattern.compile("(?<![A-Za-z0-9_])`?" + Pattern.quote(table) + "`?(?![A-Za-z0-9_])").matcher(query).find();
  }

  static String replaceTable(String query, String from, String to) {
    return Pattern.compile("(?<![A-Za-z0-9_])(`?)" + Pattern.quote(from) + "(`?)(?![A-Za-z0-9_])").matcher(query)
        .replaceAll("$1" + Matcher.quoteReplacement(to) + "$2");
  }
}
