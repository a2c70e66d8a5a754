package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import java.util.Map;
import java.util.Optional;

/** What one scan of both versions and the repair's ledger show now: the coverage proof and the live writer. */
public final class Observation {

  private final Sql sql;
  private final StateStore state;
  private final TableSpec spec;

  public Observation(RepairContext on) {
    this.sql = on.sql();
    this.state = on.state();
    this.spec = on.spec();
  }

  /** The coverage proof of {@code window} now, from per-hour checksums and the repair's ledger. */
  public Coverage.Result coverage(Repair repair, HourRange window, Optional<HourPartition> v2Edge) {
    Map<HourPartition, LedgerEntry> ledger = state.hours().repairLedger(repair.id());
    return Coverage.of(window, repair.boundary().orElseThrow(), new HourSums(sql, spec).of(window,
        Coverage.carried(ledger)), ledger, v2Edge);
  }

  public LiveWriter liveWriter(Repair repair, HourRange window, Optional<HourPartition> v2Edge) {
    return coverage(repair, window, v2Edge).live();
  }
}
