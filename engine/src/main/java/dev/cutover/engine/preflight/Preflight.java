package dev.cutover.engine.preflight;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.TargetTables;
import dev.cutover.engine.backfill.Transform;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.reconcile.Rules;
import dev.cutover.engine.spec.Determinism;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks before a backfill. They only read (the sample hour is computed in a SELECT); the
 * target is created by the backfill itself, and this report says so when it is absent.
 */
public final class Preflight {

  private static final Pattern TTL_DAYS = Pattern.compile("TTL\\s+(\\w+)\\s*\\+\\s*toInterval(Day|Hour|Month|Week)\\((\\d+)\\)");

  private final Sql sql;
  private final TableSpec spec;
  private final TargetTables tables;
  private final StateStore store;

  public Preflight(Sql sql, TableSpec spec, StateStore store) {
    this.sql = sql;
    this.spec = spec;
    this.tables = new TargetTables(sql, spec);
    this.store = store;
  }

  /**
   * Runs every check for a plan.
   *
   * @param acknowledgedDependents dependents of the target the operator has acknowledged (as {@code db.table})
   */
  public PreflightReport run(Plan plan, List<String> acknowledgedDependents) {
    return run(plan, acknowledgedDependents, Progress.NONE);
  }

  /** Runs every check for a plan, reporting each as it starts; stops between checks when cancelled. */
  public PreflightReport run(Plan plan, List<String> acknowledgedDependents, Progress progress) {
    List<Dependent> dependents = dependents(acknowledgedDependents);
    List<Map.Entry<String, Supplier<Check>>> steps = List.of(
        Map.entry("partition key", () -> partitioning(plan)),
        Map.entry("transform", this::columns),
        Map.entry("rules", this::rules),
        Map.entry("roles", this::roles),
        Map.entry("boundary", () -> new BoundaryCheck(sql, spec, store).check(plan)),
        Map.entry("reprocessing window", () -> reprocessingWindow(plan)),
        Map.entry("side effects", () -> sideEffects(dependents)),
        Map.entry("determinism (a sample hour, twice)", () -> determinism(plan)),
        Map.entry("privileges", () -> new Privileges(sql, spec, store.database()).check()),
        Map.entry("disk", () -> disk(plan)));
    List<Check> checks = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      progress.check("checking " + steps.get(i).getKey());
      progress.update("Checking " + steps.get(i).getKey() + " (" + (i + 1) + " of " + steps.size() + ")",
          (double) i / steps.size());
      checks.add(steps.get(i).getValue().get());
    }
    return new PreflightReport(checks, dependents);
  }

  private List<Dependent> dependents(List<String> acknowledged) {
    List<Dependent> dependents = new ArrayList<>();
    for (Identifier table : List.of(spec.targetTable(), spec.liveTable())) {
      sql.query("list dependents of " + table, "SELECT arrayJoin(arrayMap((d, t) -> d || '.' || t, "
              + "dependencies_database, dependencies_table)) FROM system.tables WHERE database = ? AND name = ?",
          rs -> rs.getString(1), spec.database().name(), table.name())
          .forEach(d -> dependents.add(new Dependent(d, table.name(), acknowledged.contains(d))));
    }
    return dependents;
  }

  /** The hour partitioning, and for a bounded repair whether v2 can take v1's parts as they are. */
  private Check partitioning(Plan plan) {
    String expected = "toStartOfHour(" + spec.timeColumn().name() + ")";
    boolean targetExists = tables.exists(spec.targetTable());
    Identifier table = targetExists ? spec.targetTable() : spec.liveTable();
    String key = tables.partitionKey(table).replace(" ", "");
    if (!key.equalsIgnoreCase(expected)) {
      return new Check("partition key", Status.FAIL, spec.database() + "." + table + " is partitioned by "
          + (key.isEmpty() ? "nothing" : key) + ", not by " + expected + ", so an hour cannot be replaced on its own.",
          targetExists ? "Recreate " + spec.targetTable() + " with PARTITION BY " + expected + " (it holds only corrected "
              + "history), or name another target in tables.target."
              : "Give the target its own definition with PARTITION BY " + expected + " before the backfill.");
    }
    int carried = plan.carried().size();
    if (carried > 0 && targetExists) {
      var why = tables.cannotCarry();
      if (why.isPresent()) {
        return new Check("partition key", Status.FAIL, why.get(), "Recreate " + spec.targetTable() + " AS "
            + spec.liveTable() + " (it holds only corrected history), or leave out the affected window to recompute "
            + "every hour.");
      }
    }
    String carry = carried == 0 ? "" : " The " + carried + " hours outside the affected window are carried from "
        + spec.liveTable() + " by REPLACE PARTITION, which needs v2 to have v1's columns, engine and keys"
        + (targetExists ? ": it has." : ": the backfill creates it so.");
    return new Check("partition key", Status.PASS, (targetExists
        ? spec.targetTable() + " is partitioned by " + expected + "; staging tables copy its structure, so REPLACE "
            + "PARTITION accepts them."
        : spec.targetTable() + " does not exist yet; the backfill creates it with the structure, partitioning ("
            + expected + ") and ordering of " + spec.liveTable() + ", and its staging tables from it.") + carry, "");
  }

  private Check columns() {
    Identifier table = tables.exists(spec.targetTable()) ? spec.targetTable() : spec.liveTable();
    List<Identifier> target = tables.insertableColumns(table);
    HourPartition any = HourPartition.containing(Instant.now());
    Transform t = Transform.bind(spec, any, any.plusHours(1));
    List<Identifier> produced;
    try {
      produced = sql.query("describe the transform", "DESCRIBE (" + t.sql() + ")", rs -> Identifier.of(rs.getString(1)),
          t.values().toArray());
    } catch (QueryFailedException e) {
      return new Check("transform", Status.FAIL, "The transform does not compile on this server: " + e.getMessage(),
          "Fix the transform in the spec and run preflight again.");
    }
    List<Identifier> missing = target.stream().filter(c -> !produced.contains(c)).toList();
    if (!missing.isEmpty()) {
      return new Check("transform", Status.FAIL, "The transform produces " + produced + " but " + table + " needs "
          + missing + " as well.", "Name every column of " + table + " in the transform's SELECT list.");
    }
    for (Identifier key : spec.keys()) {
      if (!target.contains(key)) {
        return new Check("transform", Status.FAIL, "Key column " + key + " is not a column of " + table + ".",
            "Correct keys in the spec to columns of the table.");
      }
    }
    return new Check("transform", Status.PASS, "The transform compiles and produces every column of " + table + ".", "");
  }

  private Check roles() {
    String view = tables.engine(spec.consumerView());
    if (view.isEmpty()) {
      return new Check("roles", Status.FAIL, "The consumer view " + spec.database() + "." + spec.consumerView()
          + " does not exist.", "Create it over " + spec.liveTable() + " (CREATE VIEW " + spec.consumerView()
          + " AS SELECT * FROM " + spec.liveTable() + "), so that consumers can be switched in one step.");
    }
    if (!view.equals("View")) {
      return new Check("roles", Status.FAIL, spec.consumerView() + " is a " + view + ", not a view.",
          "Consumers must read a view that the cutover can exchange; point tables.consumer_view at one.");
    }
    String query = sql.query("read the consumer view", "SELECT as_select FROM system.tables WHERE database = ? AND name = ?",
        rs -> rs.getString(1), spec.database().name(), spec.consumerView().name()).getFirst();
    if (mentions(query, spec.targetTable().name())) {
      return new Check("roles", Status.FAIL, "Consumers already read " + spec.targetTable() + " through "
          + spec.consumerView() + "; rewriting it now would change what they see.",
          "Roll the cutover back first, or choose a new target in tables.target.");
    }
    return new Check("roles", Status.PASS, "Consumers read " + spec.consumerView() + " over " + spec.liveTable()
        + "; the target " + spec.targetTable() + " is neither the consumer view nor the live version.", "");
  }

  private Check rules() {
    if (spec.expectedDifferences().isEmpty()) {
      return new Check("rules", Status.PASS, "The spec states no expected difference: every difference between v1 "
          + "and v2 will be unexpected until acknowledged.", "");
    }
    try {
      new Rules(sql, spec).compile(true);
    } catch (InvalidInputException e) {
      return new Check("rules", Status.FAIL, e.getMessage(), "Fix that field of the rule in the spec and run preflight "
          + "again.");
    }
    return new Check("rules", Status.PASS, "Every where, check and delta of the " + spec.expectedDifferences().size()
        + " rule(s) is one expression that resolves against the columns of " + spec.liveTable() + " and "
        + spec.targetTable() + ".", "");
  }

  private Check reprocessingWindow(Plan plan) {
    for (TableSpec.Source source : spec.sources()) {
      String engineFull = sql.query("read the definition of " + source.table(), "SELECT engine_full FROM system.tables "
          + "WHERE database = ? AND name = ?", rs -> rs.getString(1), spec.database().name(), source.table().name())
          .stream().findFirst().orElse("");
      Matcher m = TTL_DAYS.matcher(engineFull);
      if (m.find()) {
        long amount = Long.parseLong(m.group(3));
        Duration ttl = switch (m.group(2)) {
          case "Hour" -> Duration.ofHours(amount);
          case "Week" -> Duration.ofDays(7 * amount);
          case "Month" -> Duration.ofDays(31 * amount);
          default -> Duration.ofDays(amount);
        };
        Instant expires = plan.range().from().start().plus(ttl);
        Instant finish = Instant.now().plus(plan.estimates().duration()).plus(Duration.ofHours(1));
        if (expires.isBefore(finish)) {
          return new Check("reprocessing window", Status.FAIL, "Source " + source.table() + " keeps rows for "
              + ttl.toDays() + " days (TTL on " + m.group(1) + "): the hour " + plan.range().from() + " expires at "
              + expires + ", before the backfill can finish.", "Start the range later than "
              + HourPartition.containing(Instant.now().minus(ttl).plus(Duration.ofHours(2))) + ", or extend the TTL first.");
        }
      }
    }
    return new Check("reprocessing window", Status.PASS, "Every source holds the range " + plan.range()
        + " and no TTL removes it before the backfill ends.", "");
  }

  private Check sideEffects(List<Dependent> found) {
    List<String> dependents = found.stream().map(d -> d.name() + " (reads " + d.reads() + ")").toList();
    List<String> open = found.stream().filter(d -> !d.acknowledged()).map(d -> d.name() + " (reads " + d.reads() + ")")
        .toList();
    if (dependents.isEmpty()) {
      return new Check("side effects", Status.PASS, "No materialized view or other dependent reads "
          + spec.targetTable() + " or " + spec.liveTable() + ".", "");
    }
    if (!open.isEmpty()) {
      return new Check("side effects", Status.FAIL, "These dependents react to writes: " + String.join(", ", open)
          + ". The backfill writes only the target by REPLACE PARTITION, which fires no materialized view, but "
          + "anything that reads these tables must not re-emit effects for replayed history.",
          "Review each one, then acknowledge it by name: add " + found.stream().filter(d -> !d.acknowledged())
              .map(d -> "--acknowledge " + d.name()).collect(java.util.stream.Collectors.joining(" "))
              + " on the command line, or tick it under \"Reviewed dependents\" on the Plan screen.");
    }
    return new Check("side effects", Status.WARN, "Acknowledged dependents: " + String.join(", ", dependents) + ".", "");
  }

  private Check determinism(Plan plan) {
    List<String> allNames = new ArrayList<>(Determinism.REFUSED);
    allNames.addAll(Determinism.ORDER_DEPENDENT);
    List<String> found = Determinism.calls(spec.transform(), allNames).stream().map(c -> c.function() + "()")
        .distinct().toList();
    String allowed = spec.allowedNondeterministic().stream().map(a -> a.function() + "() (" + a.reason() + ")")
        .collect(java.util.stream.Collectors.joining(", "));
    HourPartition sample = busiestHour(plan);
    Transform t = Transform.bind(spec, sample, sample.plusHours(1));
    String checksum = "SELECT count(), reinterpretAsInt64(sum(cityHash64(*))) FROM (" + t.sql() + ")";
    String first = sql.queryOne("checksum a sample hour", checksum, rs -> rs.getLong(1) + ":" + rs.getLong(2), t.values().toArray());
    String second = sql.queryOne("checksum a sample hour again", checksum, rs -> rs.getLong(1) + ":" + rs.getLong(2),
        t.values().toArray());
    if (!first.equals(second)) {
      return new Check("determinism", Status.FAIL, "The transform gave two different results for the hour " + sample
          + " (rows:checksum " + first + " then " + second + ")" + (found.isEmpty() ? "" : "; it calls " + found)
          + (allowed.isEmpty() ? "" : "; the spec allows " + allowed + ", but the rows show otherwise") + ".",
          "Make the transform a pure function of its inputs (no now(), rand(), any() or unordered groupArray()).");
    }
    if (!found.isEmpty()) {
      return new Check("determinism", Status.WARN, "The hour " + sample + " gave the same result twice, but the "
          + "transform calls " + found + ", whose results can change between runs"
          + (allowed.isEmpty() ? "" : "; the spec allows " + allowed) + ".",
          "Replace them with deterministic forms (the hour window instead of now(), min/max instead of any).");
    }
    return new Check("determinism", Status.PASS, "The hour " + sample + " gave the same rows and checksum twice ("
        + first + "), and the transform calls no non-deterministic function.", "");
  }

  /** The hour of the range with the most rows in v1: an empty hour would prove nothing. */
  private HourPartition busiestHour(Plan plan) {
    long seconds = sql.queryLong("find a busy hour", "SELECT toUnixTimestamp(argMax(h, n)) FROM (SELECT toStartOfHour("
        + spec.timeColumn().quoted() + ") AS h, count() AS n FROM " + spec.qualified(spec.liveTable()) + " WHERE "
        + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND " + spec.timeColumn().quoted()
        + " < toDateTime(?, 'UTC') GROUP BY h)", plan.range().from().epochSecond(), plan.range().to().epochSecond());
    return seconds > 0 ? HourPartition.ofEpochSecond(seconds) : plan.range().from().plusHours(plan.range().hours() / 2);
  }

  private Check disk(Plan plan) {
    String parts = "FROM system.parts WHERE active AND database = ? AND table = ? AND toUInt64OrZero(partition_id) >= ? "
        + "AND toUInt64OrZero(partition_id) < ?";
    Object[] where = {spec.database().name(), spec.liveTable().name(), plan.range().from().epochSecond(),
        plan.range().to().epochSecond()};
    long liveBytes = sql.queryLong("measure " + spec.liveTable(), "SELECT sum(bytes_on_disk) " + parts, where);
    long largestHour = sql.queryLong("measure the largest hour of " + spec.liveTable(), "SELECT max(b) FROM (SELECT "
        + "sum(bytes_on_disk) AS b " + parts + " GROUP BY partition_id)", where);
    long free = sql.queryLong("read free disk space", "SELECT min(free_space) FROM system.disks WHERE name IN (SELECT "
        + "arrayJoin(disks) FROM system.storage_policies WHERE policy_name = ifNull((SELECT any(storage_policy) FROM "
        + "system.tables WHERE database = ? AND name = ?), 'default'))", spec.database().name(), spec.liveTable().name());
    return diskCheck(needed(liveBytes, largestHour, plan.hours().size(), plan.settings().batchHours(),
        plan.settings().concurrency()), liveBytes, free);
  }

  /**
   * What a backfill needs on disk at its peak: v2 about as large as v1 over the range; each batch in
   * flight twice (its rows in staging, and the same parts hard-linked into v2 while a merge of them
   * writes its result); and room for a merge of the largest hour, which writes a new part before it
   * removes the old ones.
   */
  static long needed(long liveBytes, long largestHour, int hours, int batchHours, int concurrency) {
    long batch = liveBytes / Math.max(1, hours) * batchHours;
    return liveBytes + 2 * batch * concurrency + largestHour;
  }

  static Check diskCheck(long needed, long liveBytes, long free) {
    String sizes = "about " + mib(needed) + " needed (v1 holds " + mib(liveBytes) + " for the range), " + mib(free) + " free";
    if (free < needed) {
      return new Check("disk", Status.FAIL, "Not enough disk: " + sizes + ".", "Free space on the target's disks, "
          + "or backfill a shorter range at a time.");
    }
    if (free < needed + needed / 2) {
      return new Check("disk", Status.WARN, "Disk is tight: " + sizes + ".", "Watch free space during the run.");
    }
    return new Check("disk", Status.PASS, "Disk: " + sizes + ".", "");
  }

  private static String mib(long bytes) {
    return bytes < 10L << 20 ? (bytes >> 10) + " KiB" : (bytes >> 20) + " MiB";
  }

  private static boolean mentions(String query, String table) {
    return Pattern.compile("(?<![A-Za-z0-9_])`?" + Pattern.quote(table) + "`?(?![A-Za-z0-9_])").matcher(query).find();
  }
}
