package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.ledger.StateStore;
import java.time.Instant;

/** The end of an armed cutover's window, brought forward: as if the clock had passed it while the arm waited. */
public final class ArmWindow {

  private ArmWindow() {}

  /** The arm in force keeps its start and holder; its window now ended a second ago. */
  public static void endNow(Sql sql, String workingDatabase, TableSpec spec) {
    Arming arming = new Arming(RepairContext.of(sql, new StateStore(sql, workingDatabase), spec));
    Armed armed = arming.armed().orElseThrow(() -> new AssertionError("nothing is armed"));
    if (!arming.take(armed)) {
      throw new AssertionError("the arm was taken first");
    }
    Instant ended = Instant.now().minusSeconds(1);
    arming.restore(new Armed(armed.target(), ended.minusSeconds(60), ended, armed.by()));
  }
}
