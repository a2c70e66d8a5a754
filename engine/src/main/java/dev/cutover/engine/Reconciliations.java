package dev.cutover.engine;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.reconcile.Acknowledging;
import dev.cutover.engine.reconcile.Differ;
import dev.cutover.engine.reconcile.Reconciler;
import dev.cutover.engine.reconcile.ReportColumns;
import dev.cutover.engine.reconcile.ReportExport;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.tables.TableNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reconciling v1 and v2: the verdict over the repair's window, the reports it stores, the keys of an
 * hour, the acknowledgements that accept a difference, and the report files for reviewers.
 */
public final class Reconciliations {

  private final Ground ground;

  Reconciliations(Ground ground) {
    this.ground = ground;
  }

  /** The reconciliation steps of {@code spec}'s repair on this server. */
  public ReconcileSteps of(TableSpec spec) {
    return new OnServer(this, spec);
  }

  private record OnServer(Reconciliations on, TableSpec spec) implements ReconcileSteps {
    @Override
    public String where() {
      return "the server";
    }

    @Override
    public Optional<dev.cutover.engine.api.BlockBound> blockBound() {
      return dev.cutover.engine.tables.TransformSources.blockBoundMeasures(on.ground.sql(), spec,
          spec.correctedWriter().views());
    }

    @Override
    public Reconciliation reconcile(Reconciliation.Scope scope, Optional<HourRange> range, int keyLimit,
        Progress progress) {
      return RepairHooks.verdict(RepairHooks.onServer(on.ground, spec), on.reconcile(spec, scope, range, keyLimit,
          progress));
    }

    @Override
    public List<Diff.KeyDiff> hourKeys(HourPartition hour, int limit) {
      return on.hourKeys(spec, hour, limit);
    }

    @Override
    public Optional<String> newestId() {
      return on.newestId(spec);
    }

    @Override
    public Optional<Stored> newest() {
      return on.stored(spec).stream().findFirst().map(s -> new Stored(s, on.load(s.id())));
    }

    @Override
    public Reconciliation.Fingerprint differences(HourPartition hour, List<String> key) {
      return on.differences(spec, hour, key);
    }

    @Override
    public Reconciliation.Fingerprint acknowledge(HourPartition hour, List<String> key, String reason,
        Reconciliation.Fingerprint seen) {
      return on.acknowledge(spec, hour, key, reason, Optional.of(seen));
    }

    @Override
    public Reconciliation.Acknowledgement withdraw(HourPartition hour, List<String> key, String reason) {
      return on.withdraw(spec, hour, key, reason);
    }

    @Override
    public ExportedReport exportHtml(Reconciliation r, Path file) {
      return on.exportHtml(r, spec, file);
    }

    @Override
    public Path exportCsv(Reconciliation r, Path file) {
      return on.exportCsv(r, spec, file);
    }
  }

  /** Reconciles the whole repair, stores the report and returns it. */
  public Reconciliation reconcile(TableSpec spec, Reconciliation.Scope scope, int keyLimit) {
    return reconcile(spec, scope, Optional.empty(), keyLimit, Progress.NONE);
  }

  public Reconciliation reconcile(TableSpec spec, Reconciliation.Scope scope, int keyLimit, Progress progress) {
    return reconcile(spec, scope, Optional.empty(), keyLimit, progress);
  }

  /**
   * Reconciles v1 and v2 over {@code scope} (and {@code range} for {@link Reconciliation.Scope#RANGE})
   * with progress; once cancelled it stops before its next statement and stores nothing.
   */
  public Reconciliation reconcile(TableSpec spec, Reconciliation.Scope scope, Optional<HourRange> range, int keyLimit,
      Progress progress) {
    return new Reconciler(ground.on(spec)).reconcile(scope, range, keyLimit,
        progress);
  }

  /**
   * The keys of one hour that differ between v1 and v2 now, unexpected first, each with the rule that
   * explains it; for looking into an hour of a reconciliation.
   */
  public List<Diff.KeyDiff> hourKeys(TableSpec spec, HourPartition hour, int limit) {
    return new Differ(ground.sql(), spec).keys(spec.liveTable(), spec.targetTable(), List.of(hour), limit);
  }

  /** The stored reconciliations of the spec's target, newest first. */
  public List<ReportSummary> stored(TableSpec spec) {
    return ground.reports().reconciliations(TableNames.target(spec));
  }

  /**
   * The id of the newest stored reconciliation of the spec's target: what a screen compares with the one
   * it shows, to tell that another process stored a newer one. Empty when none was stored.
   */
  public Optional<String> newestId(TableSpec spec) {
    return stored(spec).stream().findFirst().map(ReportSummary::id);
  }

  /**
   * The newest stored reconciliation of the spec's target, read back whole, as it was when it was
   * made: what a screen shows before anyone reconciles again. Empty when none was stored.
   */
  public Optional<Reconciliation> latest(TableSpec spec) {
    return newestId(spec).flatMap(ground.reports()::load);
  }

  /** A stored reconciliation by its id, read back whole. */
  public Optional<Reconciliation> load(String id) {
    return ground.reports().load(id);
  }

  /**
   * Writes a reconciliation as an HTML page for reviewers, with the CSV of every key it kept beside
   * it (the CSV first, so that the page never names a file that is not there); key columns are named
   * and values print as their ClickHouse types print.
   */
  public ExportedReport exportHtml(Reconciliation r, TableSpec spec, Path file) {
    return ReportExport.write(r, ReportColumns.read(ground.database(), spec), file);
  }

  /** Writes a reconciliation as CSV: hours, keys, counts and coverage, values as their types print. */
  public Path exportCsv(Reconciliation r, TableSpec spec, Path file) {
    try {
      return Files.writeString(file, ReportExport.csv(r, ReportColumns.read(ground.database(), spec)));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the report to " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The unexpected differences of {@code hour} (of one key of it when {@code key} is not empty) that an
   * acknowledgement would accept now ({@link Reconciliation.Fingerprint#none()} when there are none): what to
   * show the operator before asking for a reason. Refused, naming the field, for an hour outside the repair's
   * window or not yet written by both versions, and a key whose values do not parse as the key columns' types.
   */
  public Reconciliation.Fingerprint differences(TableSpec spec, HourPartition hour, List<String> key) {
    return new Acknowledging(ground.on(spec)).subject(hour, key).differences();
  }

  /**
   * Accepts the unexpected differences of an hour (one key of it when {@code key} is not empty) with a
   * written reason, bound to what they are now: once they change, the acknowledgement accepts nothing and
   * the verdict says so. Returns what was accepted. Refused as {@link #differences} is, and when there is no
   * unexpected difference to accept.
   */
  public Reconciliation.Fingerprint acknowledge(TableSpec spec, HourPartition hour, List<String> key, String reason) {
    return acknowledge(spec, hour, key, reason, Optional.empty());
  }

  /**
   * As {@link #acknowledge(TableSpec, HourPartition, List, String)}, refused when the differences are no
   * longer {@code seen}, the ones the operator was shown.
   */
  public Reconciliation.Fingerprint acknowledge(TableSpec spec, HourPartition hour, List<String> key, String reason,
      Optional<Reconciliation.Fingerprint> seen) {
    String why = Reasons.check("reason", reason, "An acknowledgement needs a written reason; it goes to the audit "
        + "trail and the verdict shows it.");
    return new Acknowledging(ground.on(spec)).acknowledge(hour, key, seen, why);
  }

  /**
   * Takes back the acknowledgement in force of an hour (of one key when {@code key} is not empty), with a
   * written reason that goes to the audit trail: from now on it accepts nothing.
   */
  public Reconciliation.Acknowledgement withdraw(TableSpec spec, HourPartition hour, List<String> key, String reason) {
    String why = Reasons.check("reason", reason, "Withdrawing an acknowledgement needs a written reason; it goes to "
        + "the audit trail.");
    return new Acknowledging(ground.on(spec)).withdraw(hour, key, why);
  }

  /** The acknowledgements in force in the repair under way, oldest hour first; none without a repair. */
  public List<Reconciliation.Acknowledgement> acknowledgements(TableSpec spec) {
    return new Repairs(ground.on(spec)).open().map(r -> ground.reports().acknowledgements(
        TableNames.target(spec), r.id())).orElse(List.of());
  }
}
