package dev.cutover.engine.preflight;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.tables.TargetTables;

/**
 * The hour partitioning of the target (or of v1, while the target does not exist), and for a
 * bounded repair whether v2 can take v1's parts as they are: an hour can only be replaced on its
 * own when the partition key is the hour.
 */
final class PartitionCheck {

  private final TableSpec spec;
  private final TargetTables tables;

  PartitionCheck(TableSpec spec, TargetTables tables) {
    this.spec = spec;
    this.tables = tables;
  }

  Check check(Plan plan) {
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
    for (Identifier folding : targetExists ? java.util.List.of(spec.liveTable(), spec.targetTable())
        : java.util.List.of(spec.liveTable())) {
      var otherwise = tables.foldsOtherwise(folding);
      if (otherwise.isPresent()) {
        return new Check("partition key", Status.FAIL, otherwise.get(), "Order " + folding + " by "
            + spec.timeColumn() + " and the keys of the spec, or name in keys exactly the columns it is ordered by "
            + "besides " + spec.timeColumn() + ".");
      }
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
    String carry = carried == 0 ? "" : " The " + Figures.count(carried)
        + " hours outside the affected window are carried from "
        + spec.liveTable() + " by REPLACE PARTITION, which needs v2 to have v1's columns, engine and keys"
        + (targetExists ? ": it has." : ": the backfill creates it so.");
    return new Check("partition key", Status.PASS, (targetExists
        ? spec.targetTable() + " is partitioned by " + expected + "; staging tables copy its structure, so REPLACE "
            + "PARTITION accepts them."
        : spec.targetTable() + " does not exist yet; the backfill creates it with the structure, partitioning ("
            + expected + ") and ordering of " + spec.liveTable() + ", and its staging tables from it.") + carry, "");
  }
}
