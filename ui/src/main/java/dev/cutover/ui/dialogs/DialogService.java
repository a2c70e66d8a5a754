package dev.cutover.ui.dialogs;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.SavedProfile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Every question the console asks the operator, one method per question, so that tests can answer
 * them. Called on the FX thread; each method returns when the operator has answered.
 */
public interface DialogService {

  /** Which spec file to load. */
  Optional<Path> chooseSpecFile(Optional<Path> current);

  /** Where to write an export; {@code extension} without the dot. */
  Optional<Path> chooseExportFile(String title, String suggestedName, String extension);

  /** Whether to start a backfill that writes these hours of the target. */
  boolean confirmBackfill(BackfillRequest request);

  /** Whether to end a run after its batches under way. */
  boolean confirmCancelRun(String runId, long hoursDone, long hoursTotal);

  /** Whether to close the console while it drives a run: closing cancels the run, which can be resumed later. */
  boolean confirmCloseWhileRunning(String runId, long hoursDone, long hoursTotal);

  /**
   * Whether to create the corrected materialized view {@code TO} {@code target} from the deployment's
   * future boundary, which its creation pins.
   */
  boolean confirmDeployView(dev.cutover.engine.api.LiveDeployment deployment, String target);

  /** Whether to start the corrected live writer from the boundary (demo world only). */
  boolean confirmDeployLiveWriter(HourPartition from, String description);

  /**
   * What the operator deployed as the corrected live writer of {@code target} from {@code from}, in their
   * words (a job's name and version), to declare in the audit trail; empty when they decline.
   */
  Optional<String> declareLiveWriter(HourPartition from, String target);

  /**
   * Why replaying history through a dependent of the target or of v1 is safe, in the operator's words, to
   * acknowledge it for the backfill (whose run writes it to the audit trail before any hour); empty when
   * they decline.
   */
  Optional<String> acknowledgeSideEffect(SideEffectRequest request);

  /** The written reason for accepting an unexpected difference, or empty when the operator declines. */
  Optional<String> acknowledgeDifference(AckRequest request);

  /** The written reason for taking an acknowledgement back, or empty when the operator declines. */
  Optional<String> withdrawAcknowledgement(WithdrawRequest request);

  /** The consumer view's name as the operator typed it to confirm the cutover, or empty. */
  Optional<String> confirmCutover(SwapRequest request);

  /**
   * Asks to arm the cutover: consumers switch by themselves the first time the gate opens within the window the
   * operator chooses, confirmed by typing the consumer view's name. Empty when declined.
   */
  default Optional<Arming> confirmArm(ArmRequest request) {
    return Optional.empty();
  }

  /** What arming the cutover is asked on: the server, the consumer view, the table it will read, the statement. */
  record ArmRequest(String server, String consumerView, String readsAfter, String statement) {}

  /** The operator's arm: the view's name as typed, and the window. */
  record Arming(String typed, java.time.Duration window) {}

  /**
   * The consumer view's name as the operator typed it to confirm the rollback, with the reason the operator wrote
   * for the audit trail; empty when the operator declines.
   */
  Optional<Confirmed> confirmRollback(SwapRequest request);

  /** A swap confirmed: the view's name as typed, and the reason written (a rollback asks for one). */
  record Confirmed(String typed, Optional<String> reason) {}

  /** Whether to drop the staging and sample tables left by runs. */
  boolean confirmCleanup(String target);

  /**
   * Whether to drop v1, which ends the rollback for good: the written reason (required before the
   * retention horizon, may be empty after it), or empty when the operator declines.
   */
  Optional<String> confirmDropV1(DropRequest request);

  /**
   * Whether to give up the repair: the target table's name as the operator typed it and the written
   * reason, or empty when the operator declines.
   */
  Optional<Abandonment> confirmAbandon(AbandonRequest request);

  /** A new connection profile, or {@code existing} edited; checked before it is returned; empty when cancelled. */
  Optional<SavedProfile> editProfile(Optional<SavedProfile> existing);

  /** The password of a profile that asks for it at connect, or empty when cancelled. Kept in memory only. */
  Optional<char[]> askPassword(SavedProfile profile);

  /** Whether to delete a saved connection profile. */
  boolean confirmDeleteProfile(SavedProfile profile);

  /** A backfill about to start. */
  record BackfillRequest(String target, HourRange range, HourPartition boundary, long hours, String settings) {}

  /**
   * v1 about to be dropped: the exact statement, the table's name to type, whether the horizon has
   * passed, and the tables that still use v1 (each to be ticked before the drop is offered).
   */
  record DropRequest(String server, String statement, String table, String horizon, boolean early,
      java.util.List<dev.cutover.engine.api.V1Reader> readers) {
    public DropRequest {
      readers = java.util.List.copyOf(readers);
    }
  }

  /**
   * A repair about to be given up.
   *
   * @param server which server (profile and address) the repair is given up on, in words
   * @param target the versioned table as {@code database.table}
   * @param table the name to type: the target table's, without its database
   * @param phase the repair's phase, in words
   * @param consequence what abandoning does and does not do, for the operator to read first
   */
  record AbandonRequest(String server, String target, String table, String repairId, String phase, Optional<HourPartition> boundary,
      String consequence) {}

  /** The operator's answer to {@link AbandonRequest}: the name as typed and the reason for the audit trail. */
  record Abandonment(String typedName, String reason) {}

  /**
   * A dependent about to be acknowledged: it reads {@code reads} and may react again to the hours the backfill
   * of {@code target} ({@code database.table}) replays.
   */
  record SideEffectRequest(String dependent, String reads, String target) {}

  /**
   * A difference about to be accepted; {@code key} is empty for the whole hour. {@code differences} is what the
   * acknowledgement will accept, read from the data as the dialog opens: the keys, their kinds and sums.
   */
  record AckRequest(HourPartition hour, List<String> key, String summary, String differences) {
    public AckRequest {
      key = List.copyOf(key);
    }
  }

  /** An acknowledgement in force about to be taken back: whose, why it was given, and what it accepted. */
  record WithdrawRequest(HourPartition hour, List<String> key, String by, String reason, String accepted) {
    public WithdrawRequest {
      key = List.copyOf(key);
    }
  }

  /**
   * A switch of the consumer view, with the exact statement, what consumers read before and after,
   * and how to judge the step's gate again while the dialog is open: a gate judged minutes ago, or
   * before the server was lost, must not be what the operator confirms against. {@code server} says in
   * words which server (profile and address) the switch runs on: the wrong environment is the classic
   * mistake of a confirmed step.
   */
  record SwapRequest(String server, String action, String statement, String consumerView, Gate.Version before, String readsBefore,
      Gate.Version after, String readsAfter, GateCheck gate) {}

  /** Judges a step's gate again, now, in the background. */
  @FunctionalInterface
  interface GateCheck {
    /**
     * Starts judging and returns at once; later, on the FX thread, {@code judged} receives the gate
     * with the time it was judged, or {@code failed} the sentence of why it could not be.
     */
    void judge(BiConsumer<Gate, Instant> judged, Consumer<String> failed);
  }
}
