package dev.cutover.ui;

import dev.cutover.engine.api.HourPartition;

/**
 * What the demo world lets the console do that a real deployment leaves to the operator: start the
 * corrected live writer. Absent outside the demo; the backfill screen then says what to do instead.
 *
 * <pre>{@code
 * new ConsoleStartup(target, connector).withDemo(new DemoControls() {
 *   public String describe() { return "Demo world: six months of hourly PnL with the fee bug"; }
 *   public void deployV2(HourPartition from) { demoWorld.startCorrectedWriter(from); }
 * });
 * }</pre>
 */
public interface DemoControls {

  /** One sentence saying what the demo world is and what deploying does in it. */
  String describe();

  /**
   * Starts the corrected live writer writing v2 for every hour from {@code from} on, and returns when
   * it has started. Blocking; never called on the FX thread.
   */
  void deployV2(HourPartition from);
}
