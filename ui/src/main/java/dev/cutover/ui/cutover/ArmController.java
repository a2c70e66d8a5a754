package dev.cutover.ui.cutover;

import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.dialogs.DialogService;
import java.time.Duration;
import java.util.Optional;

/**
 * The Cutover screen's armed cutover: arming it behind the typed confirmation and a window, disarming it, following
 * the arm in the repair's snapshot (this console's or another process's), and this console's turns while one is
 * armed: the gate judged every {@link #TURN}, and consumers switched the first time it is open. Made by {@link
 * CutoverController}.
 */
final class ArmController {

  private final CutoverModel model;
  private final Workspace workspace;
  private final Activity activity;

  /** Begins a step that may switch consumers, which the console's close waits for; completed when it ends. */
  private final java.util.function.Supplier<java.util.concurrent.CompletableFuture<Void>> swapping;

  ArmController(CutoverModel model, java.util.function.Supplier<java.util.concurrent.CompletableFuture<Void>>
      swapping) {
    this.model = model;
    this.swapping = swapping;
    this.workspace = model.workspace();
    this.activity = model.activity();
    // Another spec (or another server): the arm shown was the old repair's, and its turns stop with it.
    workspace.specProperty().addListener((o, was, is) -> {
      stopTurns();
      armStepAt = java.time.Instant.EPOCH;
      model.armed(null, "");
    });
  }

  /** How often this console takes the turn of an armed cutover: the gate is judged that often while one is armed. */
  static final Duration TURN = Duration.ofSeconds(10);
  private dev.cutover.ui.tasks.TaskExecutor.Handle turns;
  private boolean turning;
  /** When this console last armed, disarmed or saw the arm switch or end. */
  private java.time.Instant armStepAt = java.time.Instant.EPOCH;

  /**
   * Arms the cutover once the operator typed the view's name and chose a window: consumers switch by themselves the
   * first time the gate opens within it, this console taking the turns (and the command that armed it, if any).
   */
  void arm() {
    TableSpec spec = workspace.spec();
    CutoverSteps steps = workspace.stepsOf(TargetRepair::cutovers);
    if (spec == null || steps == null || spec.cluster().isPresent()) {
      return;
    }
    Optional<DialogService.Arming> chosen = workspace.dialogs().confirmArm(new DialogService.ArmRequest(
        workspace.server(), spec.consumerView().name(), spec.consumerTarget().name(), model.statementProperty().get()));
    if (chosen.isEmpty() || spec != workspace.spec()) {
      return;
    }
    activity.run("arm the cutover of " + spec.consumerView(), p -> steps.arm(chosen.get().typed(),
        chosen.get().window()), armed -> {
          armStepAt = java.time.Instant.now();
          model.armed(armed, armedLine(armed, "the first turn judges the gate in " + TURN.toSeconds() + " s."));
          takeTurns();
          workspace.repair().refresh(); // every panel shows the arm now, not at the next read
        });
  }

  /** Disarms the armed cutover (this console's or another process's); nothing is switched. */
  void disarm() {
    TableSpec spec = workspace.spec();
    CutoverSteps steps = workspace.stepsOf(TargetRepair::cutovers);
    if (spec == null || steps == null) {
      return;
    }
    activity.run("disarm the cutover of " + spec.consumerView(), p -> steps.disarm("disarmed on the Cutover screen"), was -> {
          armStepAt = java.time.Instant.now();
          model.armed(null, was.map(a -> "Disarmed (it was " + a.describe() + "); nothing was switched.")
              .orElse("Nothing was armed."));
          stopTurns();
          workspace.repair().refresh();
        });
  }

  private static String armedLine(dev.cutover.engine.api.Armed a, String now) {
    return "Cutover " + a.describe() + ": consumers switch to v2 the first time the gate opens, while this console "
        + "or the command that armed it runs; " + now;
  }

  /**
   * The arm in the repair's snapshot, this console's or another process's: shown, and while one is armed this console
   * takes its turns too; one that went while no turn of this console ran was removed (or used) by another process.
   */
  void follow(RepairSnapshot snapshot) {
    // A snapshot read before this console's own last step on the arm says less than that step did.
    if (snapshot.at().isBefore(armStepAt)) {
      return;
    }
    if (snapshot.armed().isPresent()) {
      if (model.armedProperty().get() == null) {
        model.armed(snapshot.armed().get(), armedLine(snapshot.armed().get(), "this console takes its turns too."));
      }
      takeTurns();
    } else if (model.armedProperty().get() != null && !turning) {
      model.armed(null, "The arm was removed by another process (or it switched consumers there); nothing was "
          + "switched here.");
      stopTurns();
    }
  }

  private void takeTurns() {
    if (turns == null) {
      turns = workspace.executor().every(TURN, this::turn);
    }
  }

  private void stopTurns() {
    if (turns != null) {
      turns.cancel();
      turns = null;
    }
  }

  /** One turn of the armed cutover: the gate judged, and consumers switched the first time it is open. */
  private void turn() {
    TableSpec spec = workspace.spec();
    CutoverSteps steps = workspace.stepsOf(TargetRepair::cutovers);
    if (turning || spec == null || steps == null || spec.cluster().isPresent() || workspace.lost().get()) {
      return;
    }
    turning = true;
    java.time.Instant stepAt = armStepAt;
    // A turn may switch consumers: closing the console waits for it, as for a swap of the operator's.
    java.util.concurrent.CompletableFuture<Void> step = swapping.get();
    workspace.executor().submit(p -> {
      try {
        return steps.armedTurn(dev.cutover.engine.api.Progress.NONE);
      } finally {
        step.complete(null);
      }
    }, t -> {
      turning = false;
      // A disarm (or another step on the arm) made here while the turn ran says more than the turn's result.
      if (spec != workspace.spec() || !stepAt.equals(armStepAt) && t.outcome() != dev.cutover.engine.api.Armed
          .Outcome.SWITCHED) {
        return;
      }
      switch (t.outcome()) {
        case SWITCHED -> {
          armStepAt = java.time.Instant.now();
          model.swapped(t.switched().orElseThrow());
          model.armed(null, t.sentence());
          stopTurns();
          workspace.repair().refresh();
        }
        case EXPIRED, NOT_ARMED -> {
          armStepAt = java.time.Instant.now();
          model.armed(null, t.outcome() == dev.cutover.engine.api.Armed.Outcome.EXPIRED ? t.sentence()
              : model.armedProperty().get() == null ? "" : "The arm was removed by another process (or it switched "
              + "consumers there); nothing was switched here.");
          stopTurns();
          workspace.repair().refresh();
        }
        case WAITING -> model.armed(t.armed().orElse(null), t.armed().map(a -> armedLine(a, t.sentence())).orElse(""));
      }
    }, failure -> {
      turning = false;
      if (spec == workspace.spec() && stepAt.equals(armStepAt)) {
        model.armed(model.armedProperty().get(), Errors.sentence(failure, "take the armed cutover's turn"));
      }
    });
  }
}
