package dev.cutover.ui.backfill;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.BackfillSteps;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService.BackfillRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The backfill screen's steps: starts a backfill of the cleared plan, resumes a stopped run through
 * the same door, deploys the corrected live writer on the demo world, and hands the run this console
 * drives to {@link RunControls} and the reading of runs to {@link RunReading}. Each step is confirmed
 * by the operator first, through the dialog service.
 */
public final class BackfillController implements ScreenController {

  private final BackfillModel model;
  private final Workspace workspace;
  private final RunReading reading;
  private final RunControls run;

  public BackfillController(BackfillModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.reading = new RunReading(model);
    this.run = new RunControls(model, reading);
    model.selectedRunProperty().addListener((o, was, is) -> {
      reading.forget();
      reading.refresh();
    });
    // One shard's part alone, or every shard's merged: the hours and counts are read afresh from that feed.
    model.shownShardProperty().addListener((o, was, is) -> {
      if (is == null) {
        reading.backToEveryShard();
      } else {
        reading.forget();
      }
      reading.refresh();
    });
  }

  @Override
  public void shown() {
    reading.start();
  }

  @Override
  public void reread() {
    reading.reread();
  }

  @Override
  public ObservableBooleanValue reading() {
    return model.readingProperty();
  }

  @Override
  public void hidden() {
    reading.stop();
  }

  /** Reads the runs, the live status, and the ledger of the shown run unless this console drives it. */
  public void refresh() {
    reading.refresh();
  }

  /**
   * Starts a backfill of the current plan, once its preflight passed and the operator confirmed: on a sharded table
   * every shard's part of it at once, under one run id, shown as one run.
   */
  public void start() {
    Preflighted checked = workspace.preflightProperty().get();
    BackfillSteps steps = backfillSteps(workspace);
    Activity activity = model.activity();
    Plan plan = workspace.plan();
    if (plan == null || steps == null) {
      activity.fail("There is no plan yet; make one on the Plan screen first.");
      return;
    }
    if (checked == null || !checked.passed()) {
      activity.fail(checked == null ? "Run the preflight on the Plan screen first; the backfill starts only when no "
          + "check failed." : "The preflight found " + checked.report().failures().size() + " failed check(s); fix "
          + "them on the Plan screen and run it again.");
      return;
    }
    TableSpec spec = plan.spec();
    int nodes = Math.max(1, checked.nodes().size());
    String target = spec.database() + "." + spec.targetTable() + (nodes > 1 ? " on each of " + nodes + " shards of "
        + spec.cluster().orElseThrow().name() : "");
    // The plan the preflight cleared, which the run starts from (on a cluster a shard's: the same hours and B on
    // every shard, and the throttle of its share), not the one the Plan screen showed before it.
    Plan cleared = checked.cleared().map(dev.cutover.engine.ClearedPlan::plan).or(() -> checked.nodes().values()
        .stream().findFirst().flatMap(Preflighted::cleared).map(dev.cutover.engine.ClearedPlan::plan)).orElse(plan);
    if (!workspace.dialogs().confirmBackfill(new BackfillRequest(target, cleared.range(), cleared.boundary(),
        cleared.hours().size(), RunControls.settingsText(cleared.settings()) + (nodes > 1 ? " on each shard, "
        + "its share of the cluster's totals, from its own sources into its own v2" : "")))) {
      return;
    }
    RunProgress progress = model.progress();
    progress.clear();
    progress.layout(plan.range().from(), plan.range().to(), plan.boundary(), plan.liveEdge().plusHours(1));
    progress.hours().changed();
    UnaryOperator<BackfillSettings> throttle = model.screenThrottle();
    // Once started, the run goes on whether anyone waits: the start is not cancelled, so the run is always driven.
    activity.runToTheEnd("start the backfill on " + steps.where(), p -> steps.start(checked, run.listener()),
        started -> {
      run.drive(started);
      if (!throttle.apply(plan.settings()).equals(plan.settings())) {
        run.applyThrottle();
      }
    }, failure -> workspace.repair().refresh());
  }

  /**
   * Continues a run that failed, was cancelled or was interrupted, from its ledger, through the same
   * door as a new run: its plan (the run's range and boundary, its throttle with the concurrency,
   * rows/s and rest set here) passes the preflight first, with the dependents acknowledged on the Plan screen.
   * On a sharded table, every shard whose part of the run did not succeed.
   */
  public void resumeRun() {
    RunRecord stopped = model.progress().recordProperty().get();
    BackfillSteps steps = backfillSteps(workspace);
    PlanSteps plans = planSteps(workspace);
    if (stopped == null || steps == null) {
      model.activity().fail("There is no run to resume.");
      return;
    }
    UnaryOperator<BackfillSettings> throttle = model.screenThrottle();
    List<AcknowledgedDependent> acks = acknowledgedDependents();
    // It ends by starting the run, which goes on whether anyone waits: seen to its end, so the run is always driven.
    model.activity().runToTheEnd("check and resume run " + stopped.id(), p -> {
      Map<HourPartition, LedgerEntry> ledger = steps.ledger(stopped.id());
      LiveStatus status = plans.live();
      RunHandle resumed = steps.resume(stopped.id(), throttle, acks, p, run.listener());
      return new Resumed(resumed, ledger, status);
    }, resumed -> {
      model.progress().show(resumed.run().record(), resumed.ledger(),
          RunReading.liveEnd(resumed.live(), stopped.boundary()), Instant.now(), false);
      run.drive(resumed.run());
    }, failure -> {});
  }

  /** The backfill steps of the loaded spec's repair: one server's, or every shard's as one; null while there are none. */
  static BackfillSteps backfillSteps(Workspace workspace) {
    return workspace.stepsOf(TargetRepair::backfills);
  }

  /** The planning steps of the loaded spec's repair: one server's, or every shard's as one; null while there are none. */
  static PlanSteps planSteps(Workspace workspace) {
    return workspace.stepsOf(TargetRepair::plans);
  }

  /** The dependents acknowledged in the last preflight of this console, each with its reason. */
  private List<AcknowledgedDependent> acknowledgedDependents() {
    Preflighted last = workspace.preflightProperty().get();
    return last == null ? List.of() : PreflightReport.Dependent.acknowledgements(last.report().dependents());
  }

  private record Resumed(RunHandle run, Map<HourPartition, LedgerEntry> ledger, LiveStatus live) {}

  public void pause() {
    run.pause();
  }

  public void resume() {
    run.resume();
  }

  /** Ends the run after its batches under way, once the operator confirmed. */
  public void cancel() {
    run.cancel();
  }

  /** Whether the window may close: asks first when this console drives a run, which closing cancels. */
  public boolean mayClose() {
    return run.mayClose();
  }

  /** Applies the throttle set on the screen to the running run, from its next batch on. */
  public void applyThrottle() {
    run.applyThrottle();
  }

  /**
   * Deploys the spec's corrected materialized view (on every shard of a sharded table, from one B): reads what the
   * deployment would be (B, the exact statement), asks the operator, then creates the view and pins B, refused if B
   * moved meanwhile. The backfill then waits for B.
   */
  public void deployView() {
    TableSpec spec = workspace.spec();
    BackfillSteps steps = backfillSteps(workspace);
    Activity writer = model.writer();
    if (steps == null) {
      writer.fail("Load a spec on the Connection screen first.");
      return;
    }
    String target = spec.database() + "." + spec.targetTable() + (spec.cluster().isPresent() ? " on "
        + steps.where() : "");
    writer.run("read the corrected view's deployment", p -> steps.liveDeployment(), preview -> {
      if (preview.exists()) {
        writer.fail("The corrected view " + preview.named() + " already writes " + target + " from B = "
            + preview.boundary() + " UTC.");
        return;
      }
      if (workspace.dialogs().confirmDeployView(preview, target)) {
        // All or nothing on every shard: once sent it is seen to its end, never cancelled halfway.
        writer.runToTheEnd("deploy the corrected view " + preview.named(), p -> steps.deployLive(Optional.of(
            preview.boundary())), done -> {
          reading.refresh();
          workspace.repair().refresh();
        }, failure -> workspace.repair().refresh());
      }
    });
  }

  /**
   * Declares the operator's corrected live writer (a job outside the database) deployed from the open
   * repair's B, in their words: one line of the audit trail (of every shard's), after which the repair waits for
   * its first hour.
   */
  public void declareLiveWriter() {
    Optional<HourPartition> b = model.openBoundaryProperty().getValue();
    Activity writer = model.writer();
    TableSpec spec = workspace.spec();
    BackfillSteps steps = backfillSteps(workspace);
    if (b.isEmpty() || steps == null) {
      writer.fail("There is no repair with a boundary yet: its first backfill pins B.");
      return;
    }
    Optional<String> words = workspace.dialogs().declareLiveWriter(b.get(), spec.database() + "."
        + spec.targetTable() + (spec.cluster().isPresent() ? " on " + steps.where() : ""));
    if (words.isPresent()) {
      writer.runToTheEnd("declare the corrected live writer", p -> steps.declareLiveWriter(words.get()),
          said -> workspace.repair().refresh(), failure -> workspace.repair().refresh());
    }
  }

  /** Starts the corrected live writer from the boundary, on the demo world, once the operator confirmed. */
  public void deployLiveWriter() {
    Optional<HourPartition> from = model.boundary();
    Activity writer = model.writer();
    if (workspace.demo().isEmpty() || from.isEmpty()) {
      writer.fail("There is no boundary yet: plan and run the backfill first.");
      return;
    }
    var demo = workspace.demo().get();
    if (workspace.dialogs().confirmDeployLiveWriter(from.get(), demo.describe())) {
      writer.run("deploy the corrected live writer from " + from.get(), p -> {
        demo.deployV2(from.get());
        return true;
      }, ok -> {
        model.demoDeployedFrom().set(from); // a read already under way may have read the state before it
        reading.refresh();
        workspace.repair().refresh();
      });
    }
  }
}
