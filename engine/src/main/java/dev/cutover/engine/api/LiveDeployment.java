package dev.cutover.engine.api;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The corrected live writer deployed as materialized views: the views (the transform as one, or one per source),
 * the boundary B they write from, the exact statement that creates each, and whether they exist.
 *
 * @param statements each view's statement, in the order of {@code views}
 * @param newestEvent the newest event in the sources when this was read: B is the next whole hour
 *     after it plus the spec's safety margin
 * @param exists whether every view exists now (deployed by this step or before it)
 * @param repairId the repair that records the views, once one does
 * @param warning what the operator must know before the views run: a query that removes duplicates does so
 *     within one insert block only
 */
public record LiveDeployment(List<Identifier> views, HourPartition boundary, List<String> statements,
    Instant newestEvent, boolean exists, Optional<String> repairId, Optional<String> warning) {

  public LiveDeployment {
    views = List.copyOf(views);
    statements = List.copyOf(statements);
  }

  /** Every statement, one after the other, as an operator reads them. */
  public String statement() {
    return String.join(";\n\n", statements);
  }

  /** The views' names, joined for a sentence: {@code pnl_v2_trades_mv and pnl_v2_fees_mv}. */
  public String named() {
    return Identifier.named(views).orElse("");
  }
}
