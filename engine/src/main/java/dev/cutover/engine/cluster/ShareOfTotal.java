package dev.cutover.engine.cluster;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;

/**
 * One shard's part of the cluster's throttle: the spec's totals split evenly between the shards, each
 * shard's own throttle kept where it is tighter. Three shards under a total of six batches at once run
 * two each; under a total of 900,000 rows per second, 300,000 each. A total the shards cannot share
 * (fewer batches than shards) is refused before anything is planned.
 */
public final class ShareOfTotal {

  private ShareOfTotal() {}

  /** Refuses totals that {@code shards} shards cannot share. */
  public static void check(TableSpec.Total total, int shards) {
    if (total.concurrency() > 0 && total.concurrency() < shards) {
      throw new InvalidInputException("cluster.throttle.concurrency", "The cluster's total of " + total.concurrency()
          + " batch(es) at once cannot be shared by its " + shards + " shards: every shard runs at least one. Give "
          + "cluster.throttle.concurrency at least " + shards + ", or leave it out to throttle each shard alone.");
    }
    if (total.rowsPerSecond() > 0 && total.rowsPerSecond() < shards) {
      throw new InvalidInputException("cluster.throttle.rows_per_second", "The cluster's total of "
          + total.rowsPerSecond() + " rows per second cannot be shared by its " + shards + " shards: every shard "
          + "writes at least one. Give cluster.throttle.rows_per_second at least " + shards + ", or leave it out.");
    }
  }

  /** {@code own} with at most its shard's part of {@code total} over {@code shards} shards. */
  public static BackfillSettings of(BackfillSettings own, TableSpec.Total total, int shards) {
    check(total, shards);
    BackfillSettings s = own;
    if (total.concurrency() > 0) {
      s = s.withConcurrency(Math.min(s.concurrency(), total.concurrency() / shards));
    }
    if (total.rowsPerSecond() > 0) {
      long share = total.rowsPerSecond() / shards;
      s = s.withRowsPerSecond(s.rowsPerSecond() == 0 ? share : Math.min(s.rowsPerSecond(), share));
    }
    return s;
  }
}
