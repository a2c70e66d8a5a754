package dev.cutover.engine.api;

import java.util.List;

/**
 * The measures that the corrected views deduplicate within one insert block only, and how: a view runs its query
 * on each block alone, so an event inserted again in a later block (a retried insert) counts twice in v2 from B,
 * while the backfill, which reads whole hours, counts it once. The reconciliation compares v2 folded per hour and
 * key; a difference in these measures from B may be such an event rather than the fix, and the verdict names them.
 *
 * @param measures the spec's measures whose values a view computes with what removes duplicates, in the spec's
 *     order (every measure when the query as a whole removes duplicates, with DISTINCT or LIMIT … BY)
 * @param by what removes them, as written: {@code uniqExact()}, {@code DISTINCT}, {@code LIMIT … BY}
 */
public record BlockBound(List<String> measures, List<String> by) {

  public BlockBound {
    measures = List.copyOf(measures);
    by = List.copyOf(by);
  }

  /** The verdict's sentence about them. */
  public String sentence() {
    return "The corrected view" + " deduplicates " + String.join(", ", measures) + " (" + String.join(", ", by)
        + ") within one insert block only: from B, a difference in " + (measures.size() == 1 ? "it" : "them")
        + " can be an event inserted again in a later block (a retried insert), which the view counts twice and the "
        + "backfill once, rather than the fix.";
  }
}
