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
import java.util.Set;
import java.util.TreeMap;

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

  /**
   * Who writes v2 in {@code window} now. Below B what tells another writer is v2 against the repair's ledger, so
   * only v2 is read there; v1 is read from B on, where an hour v1 has and v2 lacks is one the live writer skipped.
   * The console reads this every few seconds while a repair is open and no backfill holds it: reading v1 below B
   * too scanned the whole history, a second of both cores at six months, for sums this answer does not use; v2's
   * sums below B are read again only when its files there changed ({@link BelowBoundarySums}).
   */
  public LiveWriter liveWriter(Repair repair, HourRange window, Optional<HourPartition> v2Edge) {
    HourPartition b = repair.boundary().orElseThrow();
    Map<HourPartition, LedgerEntry> ledger = state.hours().repairLedger(repair.id());
    Set<HourPartition> carried = Coverage.carried(ledger);
    Map<HourPartition, HourSums.Hour> hours = new TreeMap<>();
    if (window.from().isBefore(b)) {
      hours.putAll(BelowBoundarySums.of(sql, spec, new HourRange(window.from(), window.to().isBefore(b) ? window.to()
          : b), carried));
    }
    if (b.isBefore(window.to())) {
      hours.putAll(new HourSums(sql, spec).of(new HourRange(b.isBefore(window.from()) ? window.from() : b,
          window.to()), carried));
    }
    return Coverage.of(window, b, hours, ledger, v2Edge).live();
  }
}
