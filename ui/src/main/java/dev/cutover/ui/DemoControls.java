package dev.cutover.ui;

import dev.cutover.engine.api.HourPartition;

/**
 * What the demo world lets the console do that a real deployment leaves to the operator: run the
 * demo's live job (only when the operator presses its button; opening the console starts nothing) and
 * start the corrected live writer. Absent outside the demo; the backfill screen then says what to do
 * instead.
 *
 * <pre>{@code
 * new ConsoleStartup(target, connector).withDemo(new DemoControls() {
 *   public String describe() { return "Demo world: six months of hourly PnL with the fee bug"; }
 *   public LiveJobState liveJob() { return new LiveJobState(job.running(), ""); }
 *   public void startLiveJob() { job.start(); }
 *   public void stopLiveJob() { job.stop(); }
 *   public void deployV2(HourPartition from) { demoWorld.startCorrectedWriter(from); }
 * });
 * }</pre>
 */
public interface DemoControls {

  /** One sentence saying what the demo world is and what deploying does in it. */
  String describe();

  /**
   * Whether the demo's live job runs in this console's process, and, when it stopped by itself, why.
   * Reads only memory, never the server: the console calls it on the FX thread.
   */
  LiveJobState liveJob();

  /**
   * Starts the demo's live job in the background and returns once it runs; refuses with a sentence
   * (an exception) when the world is not seeded or another process runs the job. Blocking; never
   * called on the FX thread, and only when the operator asks for it.
   */
  void startLiveJob();

  /** Stops the demo's live job after its current step and returns once it stopped. Blocking; never on the FX thread. */
  void stopLiveJob();

  /**
   * Starts the corrected live writer writing v2 for every hour from {@code from} on, and returns when
   * it has started. Blocking; never called on the FX thread.
   */
  void deployV2(HourPartition from);

  /**
   * The hour from which the demo's corrected live writer was deployed, by this console or by another
   * process ({@code demo deploy-v2}), or empty while it was not. Blocking (reads the server); never
   * called on the FX thread.
   */
  default java.util.Optional<HourPartition> deployedFrom() {
    return java.util.Optional.empty();
  }

  /**
   * The spec file to load when the operator names {@code named}: the demo world's own spec when
   * {@code named} is the demo's default and the world as seeded now is of another kind (its v1 fed by
   * a materialized view), else {@code named}. Blocking (reads the server); never on the FX thread.
   */
  default java.nio.file.Path spec(java.nio.file.Path named) {
    return named;
  }

  /**
   * The demo's live job as this console runs it.
   *
   * @param running whether it steps in the background now
   * @param problem why it stopped by itself (a failure of its last step), or empty
   */
  record LiveJobState(boolean running, String problem) {

    public static final LiveJobState STOPPED = new LiveJobState(false, "");
  }
}
