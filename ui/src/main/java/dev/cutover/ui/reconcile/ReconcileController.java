package dev.cutover.ui.reconcile;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.BlockBound;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ReconcileSteps;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.ui.ShownWatch;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.dialogs.DialogService.AckRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The reconcile screen's reads and steps: runs a reconciliation of v1 and v2 over the whole window,
 * reads the newest stored one before any runs here, reads the differing keys of the hour the
 * operator looks at, acknowledges a difference with a written reason, and exports the report. Each goes
 * through the repair's {@link ReconcileSteps}: on one server, or on every shard of a sharded table at once,
 * answered as one over the whole table.
 */
public final class ReconcileController implements ScreenController {

  private static final int HOUR_KEY_LIMIT = 5000;

  private final ReconcileModel model;
  private final Workspace workspace;
  private final Activity activity;
  /** While shown: the newest stored reconciliation's id, to tell whether a newer one than the one shown exists. */
  private final ShownWatch<Optional<String>> watch;
  /** The newest stored reconciliation the watch last asked to show. */
  private String lastTried;
  /** The steps of the spec loaded now, for the watch's reads off the FX thread. */
  private volatile ReconcileSteps current;

  public ReconcileController(ReconcileModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.watch = new ShownWatch<>(workspace, activity, (engine, spec) -> {
      ReconcileSteps steps = current;
      return steps == null ? Optional.<String>empty() : steps.newestId();
    }, this::showIfNewer);
    workspace.specProperty().addListener((o, was, is) -> {
      current = steps();
      model.blockBound("");
      readBlockBound();
    });
    workspace.engineProperty().addListener((o, was, is) -> current = steps());
    workspace.openRepairProperty().addListener((o, was, is) -> current = steps());
    model.selectedHourProperty().addListener((o, was, is) -> readHourKeys());
    model.reportProperty().addListener((o, was, is) -> readHourKeys());
  }

  /**
   * The reconciliation steps of the loaded spec's repair, read on the FX thread: over every shard for a sharded
   * table (once its repair is open on every node), else on the server; null while there is none to run.
   */
  private ReconcileSteps steps() {
    return workspace.stepsOf(TargetRepair::reconciliations);
  }

  @Override
  public void shown() {
    model.defaultMeasure();
    readBlockBound();
    if (model.reportProperty().get() == null && !activity.running()) {
      readStored();
    }
    watch.start();
  }

  /** After a reconnect, shown or not: the newest stored reconciliation again, without the shown screen's watch. */
  @Override
  public void reread() {
    if (model.reportProperty().get() == null && !activity.running()) {
      readStored();
    }
  }

  @Override
  public void hidden() {
    watch.stop();
  }

  /** The spec whose corrected views' block-bound measures were read (they depend on the spec alone). */
  private TableSpec blockBoundOf;

  /** Which measures the spec's corrected views deduplicate within one insert block, once per spec. */
  private void readBlockBound() {
    ReconcileSteps steps = steps();
    TableSpec spec = workspace.spec();
    if (steps == null || spec == null || spec == blockBoundOf) {
      return;
    }
    blockBoundOf = spec;
    workspace.executor().submit(p -> steps.blockBound(), found -> {
      if (spec == workspace.spec()) {
        model.blockBound(found.map(BlockBound::sentence).orElse(""));
      }
    }, failure -> blockBoundOf = null);
  }

  /**
   * The newest stored reconciliation of the target, read back whole in the background: the screen
   * shows it, charts and all, marked as stored, until a reconciliation runs here, or a newer one is
   * stored. Its answer is dropped once what the screen shows changed since it was asked for.
   */
  private void readStored() {
    ReconcileSteps steps = steps();
    if (steps == null) {
      return;
    }
    var spec = workspace.spec();
    String shownBefore = shownId();
    workspace.executor().submit(p -> steps.newest().orElse(null), found -> {
      if (activity.running() || spec != workspace.spec() || !Objects.equals(shownBefore, shownId())
          || (found != null && found.summary().id().equals(shownBefore))) {
        return; // one made or shown here meanwhile, or the one shown: nothing newer to show
      }
      if (found == null) {
        model.stored(null);
        model.note("No reconciliation has run for this target yet" + (spec.cluster().isPresent() ? " on every shard"
            : "") + ": Reconcile now compares v1 and v2 over the whole repair" + (spec.cluster().isPresent()
            ? ", on " + steps.where() : "") + ".");
        return;
      }
      String newer = model.reportProperty().get() != null
          ? "A newer reconciliation was stored than the one shown (another console or the command line made it). " : "";
      model.stored(found.summary());
      found.report().ifPresentOrElse(r -> {
        model.show(r);
        model.note(newer + Verdicts.storedShown(found.summary()));
      }, () -> model.note(newer + Verdicts.stored(found.summary())));
    }, failure -> model.note(Errors.sentence(failure, "read the stored reconciliations")));
  }

  /**
   * A reconciliation stored since the one shown, by another console or the command line, is shown
   * instead, saying so: the verdict on the screen is never one a later reconciliation has overtaken,
   * and "no reconciliation yet" never outlives the first. A reconciliation running here is left to
   * end, and shows its own.
   */
  private void showIfNewer(Optional<String> newest) {
    // Once per newer id: a report that cannot be read back is said once, not loaded again every few seconds.
    if (newest.isPresent() && !newest.get().equals(shownId()) && !newest.get().equals(lastTried)) {
      lastTried = newest.get();
      readStored();
      workspace.repair().refresh(); // the banner's verdict line, too
    }
  }

  /** The id of the reconciliation the screen shows (or names, when it could not be read back), if any. */
  private String shownId() {
    Reconciliation shown = model.reportProperty().get();
    if (shown != null) {
      return shown.id();
    }
    ReportSummary named = model.storedProperty().get();
    return named == null ? null : named.id();
  }

  /** Compares v1 and v2 over the whole window, in the background, and stores the report. */
  public void reconcile() {
    ReconcileSteps steps = steps();
    if (steps == null) {
      activity.fail("Nothing to reconcile yet: connect and load a spec (a sharded table's repair opens on every node "
          + "first).");
      return;
    }
    int limit = model.keyLimitProperty().get();
    activity.run("reconcile v1 and v2", p -> steps.reconcile(Reconciliation.Scope.REPAIR, Optional.empty(), limit, p), r -> {
      workspace.repair().refresh();
      model.reconciled(r);
    });
  }

  /** The keys of the chosen hour, read from the engine when the hour is chosen (a report keeps only a sample). */
  private void readHourKeys() {
    Reconciliation r = model.reportProperty().get();
    HourPartition h = model.selectedHourProperty().get();
    ReconcileSteps steps = steps();
    if (r == null || h == null || steps == null) {
      return;
    }
    workspace.executor().submit(p -> steps.hourKeys(h, HOUR_KEY_LIMIT),
        keys -> model.hourKeysRead(h, keys),
        failure -> activity.fail(failure instanceof CutoverException known ? known.getMessage()
            : "Could not read the keys of " + h + ": " + failure));
  }

  /** Accepts one key's unexpected difference, with the reason the operator writes, and reconciles again. */
  public void acknowledgeKey(Diff.KeyDiff key) {
    if (key == null || key.expected()) {
      activity.fail("Select an unexpected difference in the table first; expected ones need no acknowledgement.");
      return;
    }
    acknowledge(key.hour(), key.key(), "Key " + String.join(" / ", key.key()) + " differs ("
        + key.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ") and no rule of the spec explains it.");
  }

  /** Accepts every unexpected difference of the selected hour, with a reason, and reconciles again. */
  public void acknowledgeHour() {
    HourPartition h = model.selectedHourProperty().get();
    long unexpected = model.unacknowledgedInHour();
    if (h == null || unexpected == 0) {
      activity.fail("The selected hour has no unexpected difference to acknowledge.");
      return;
    }
    acknowledge(h, List.of(), unexpected + " key(s) of this hour differ in ways no rule of the spec explains.");
  }

  /**
   * Reads what the acknowledgement would accept (the differences there now), shows it in the question, and
   * acknowledges exactly that: when the differences changed while the operator wrote the reason, the engine
   * refuses and nothing is accepted.
   */
  private void acknowledge(HourPartition hour, List<String> key, String summary) {
    ReconcileSteps steps = steps();
    if (steps == null) {
      return;
    }
    int limit = model.keyLimitProperty().get();
    activity.run("read the differences to acknowledge", p -> steps.differences(hour, key),
        seen -> {
          if (seen.none()) {
            activity.fail("Nothing to acknowledge at " + hour + ": v1 and v2 agree there now, or a rule explains every "
                + "difference. Reconcile again to see the data as it is.");
            return;
          }
          Optional<String> reason = workspace.dialogs().acknowledgeDifference(new AckRequest(hour, key, summary,
              seen.describe()));
          if (reason.isEmpty()) {
            return;
          }
          activity.run("acknowledge the difference and reconcile again", p -> {
            steps.acknowledge(hour, key, reason.get(), seen);
            return steps.reconcile(Reconciliation.Scope.REPAIR, Optional.empty(), limit, p);
          }, r -> {
            model.setReport(r);
            workspace.repair().refresh();
          }, failure -> workspace.repair().refresh());
        });
  }

  /**
   * Takes back the acknowledgement in force of the selected key, or else of the selected hour, with the reason
   * the operator writes, and reconciles again.
   */
  public void withdraw(Diff.KeyDiff selectedKey) {
    Optional<Reconciliation.Acknowledgement> a = model.acknowledgementToWithdraw(selectedKey);
    if (a.isEmpty()) {
      activity.fail("The selected hour has no acknowledgement to withdraw.");
      return;
    }
    Reconciliation.Acknowledgement ack = a.get();
    Optional<String> reason = workspace.dialogs().withdrawAcknowledgement(new DialogService.WithdrawRequest(ack.hour(),
        ack.key(), ack.by(), ack.reason(), ack.seen().map(Reconciliation.Fingerprint::describe).orElse("(not recorded)")));
    if (reason.isEmpty()) {
      return;
    }
    ReconcileSteps steps = steps();
    if (steps == null) {
      return;
    }
    int limit = model.keyLimitProperty().get();
    activity.run("withdraw the acknowledgement and reconcile again", p -> {
      steps.withdraw(ack.hour(), ack.key(), reason.get());
      return steps.reconcile(Reconciliation.Scope.REPAIR, Optional.empty(), limit, p);
    }, r -> {
      model.setReport(r);
      workspace.repair().refresh();
    }, failure -> workspace.repair().refresh());
  }

  /** Writes the report as CSV or HTML where the operator chooses, off the FX thread. */
  public void export(String format) {
    Reconciliation r = model.reportProperty().get();
    if (r == null) {
      activity.fail("There is no report to export yet; reconcile first.");
      return;
    }
    Optional<Path> file = workspace.dialogs().chooseExportFile("Export the reconciliation as " + format.toUpperCase(
        Locale.ROOT), "reconciliation-" + r.id() + "." + format, format);
    if (file.isEmpty()) {
      return;
    }
    ReconcileSteps steps = steps();
    if (steps == null) {
      return;
    }
    // The page lists a few hundred keys of each list; the CSV written beside it holds every key kept.
    activity.run("write " + file.get().getFileName(), p -> format.equals("csv")
        ? "Wrote " + steps.exportCsv(r, file.get()).toAbsolutePath() + "."
        : written(steps.exportHtml(r, file.get())), model::note);
  }

  private static String written(ExportedReport w) {
    return "Wrote " + w.html().toAbsolutePath() + ", and every key it kept to " + w.csv().toAbsolutePath() + ".";
  }
}
