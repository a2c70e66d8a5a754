package dev.cutover.ui.repair;

import dev.cutover.engine.api.RepairStatus.NextStep;

/**
 * The next step of a repair in the words of each interface: the console's screen and button, and the
 * command that does it on the command line. The engine says only what the step is; the console shows
 * both (the command as a hint for scripts), and the command line prints the command.
 */
public final class NextStepWords {

  private NextStepWords() {}

  /** The screen and button in the console; empty when nothing is left to do in Cutover. */
  public static String button(NextStep step) {
    return switch (step.kind()) {
      case BACKFILL, START_OVER -> "Plan: Run preflight, then Backfill: Start";
      case WAIT_FOR_RUN, WAIT_FOR_LIVE_WRITER -> "Backfill";
      case RESUME -> "Backfill: Resume";
      case DEPLOY_LIVE_WRITER -> "Backfill: Deploy the corrected writer";
      case DEPLOY_VIEW -> "Backfill: Deploy the corrected view…";
      case ABANDON -> "Plan: Abandon repair…";
      case FIX_LIVE_WRITER -> "Reconcile";
      case WAIT_FOR_OVERLAP -> "Reconcile: Overlap since B";
      case RECONCILE -> "Reconcile: Reconcile";
      case REVIEW_DIFFERENCES -> "Reconcile: Acknowledge…";
      case CUTOVER -> "Cutover: Cut over…";
      case SETTLE -> "Cutover";
      case WATCH_CONSUMERS -> "Cutover: Roll back… or Drop v1…";
      case FINISHED -> "";
    };
  }

  /**
   * The screen the step is taken on (its id: {@code plan}, {@code backfill}, {@code reconcile}, {@code cutover}), the
   * one the button's words name first; empty when nothing is left to do in Cutover.
   */
  public static String screen(NextStep step) {
    return switch (step.kind()) {
      case BACKFILL, START_OVER, ABANDON -> "plan";
      case WAIT_FOR_RUN, WAIT_FOR_LIVE_WRITER, RESUME, DEPLOY_LIVE_WRITER, DEPLOY_VIEW -> "backfill";
      case FIX_LIVE_WRITER, WAIT_FOR_OVERLAP, RECONCILE, REVIEW_DIFFERENCES -> "reconcile";
      case CUTOVER, SETTLE, WATCH_CONSUMERS -> "cutover";
      case FINISHED -> "";
    };
  }

  /**
   * The id of the control on {@link #screen}'s screen that takes the step (or, for a step that is a wait, shows
   * what is waited for), which the next step's button focuses once it has gone there; empty when there is none.
   */
  public static String control(NextStep step) {
    return switch (step.kind()) {
      case BACKFILL, START_OVER -> "plan-make";
      case ABANDON -> "repair-abandon";
      case RESUME -> "backfill-resume-run";
      case WAIT_FOR_RUN -> "run-progress";
      case DEPLOY_VIEW -> "deploy-view";
      case DEPLOY_LIVE_WRITER, WAIT_FOR_LIVE_WRITER -> "declare-live-writer";
      case FIX_LIVE_WRITER, WAIT_FOR_OVERLAP, RECONCILE, REVIEW_DIFFERENCES -> "reconcile-run";
      case CUTOVER -> "cutover-run";
      case SETTLE, WATCH_CONSUMERS -> "gate-refresh";
      case FINISHED -> "";
    };
  }

  /**
   * The command that does the step, with {@code spec} as the operator names the spec and
   * {@code consumerView} the name the cutover is confirmed with ({@code target}, the target table's, an
   * abandon); empty when the step happens outside
   * Cutover (deploying the corrected live writer) or nothing is left to do.
   */
  public static String command(NextStep step, String spec, String consumerView, String target) {
    String s = " --spec " + spec;
    return switch (step.kind()) {
      case BACKFILL, START_OVER -> "./cutover backfill" + s + step.from().map(h -> " --from \"" + h + "\"").orElse("");
      case DEPLOY_VIEW -> "./cutover deploy-live" + s + " --confirm";
      case ABANDON -> "./cutover abandon" + s + " --confirm " + target + " --reason \"…\"";
      case RESUME -> ("./cutover backfill" + s + " --resume " + step.runId()).stripTrailing();
      case WAIT_FOR_RUN, SETTLE, WAIT_FOR_LIVE_WRITER -> "./cutover status" + s;
      case FIX_LIVE_WRITER, RECONCILE -> "./cutover reconcile" + s;
      case WAIT_FOR_OVERLAP -> "./cutover reconcile" + s + " --window overlap";
      case REVIEW_DIFFERENCES -> "./cutover reconcile" + s + " --export html report.html";
      case CUTOVER -> "./cutover cutover" + s + " --check && ./cutover cutover" + s + " --confirm " + consumerView;
      case WATCH_CONSUMERS -> "./cutover rollback" + s + " --check";
      case DEPLOY_LIVE_WRITER, FINISHED -> "";
    };
  }
}
