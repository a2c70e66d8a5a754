package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * How the corrected live writer writes the target from the boundary B on, as the spec says: a job outside the
 * database, which the operator deploys and declares ({@code declare-live}), or materialized views that {@code
 * deploy-live} creates {@code TO} the target from one future B, all or none.
 */
public sealed interface CorrectedWriter {

  /** A job outside the database (a stream processor, a scheduled job): the spec names no view. */
  record Job() implements CorrectedWriter {}

  /**
   * Materialized views, each {@code TO} the target from B: the transform as one view when it reads one source
   * ({@code tables.live_view}), or one view per source ({@code live_views}), each its own SELECT over its source
   * appending partial rows that the target folds, as the views that feed v1 are built.
   */
  record Views(List<View> views) implements CorrectedWriter {
    public Views {
      views = List.copyOf(views);
      if (views.isEmpty()) {
        throw new IllegalArgumentException("a corrected writer of views has at least one");
      }
    }

    /** The views' names, in the spec's order. */
    public List<Identifier> names() {
      return views.stream().map(View::name).toList();
    }
  }

  /**
   * One corrected view: its name and, for one view per source, the source it fires on and its own query (with
   * the transform's placeholders); both empty when the view runs the spec's transform.
   */
  record View(Identifier name, Optional<String> source, Optional<String> select) {}

  /** The views that {@code deploy-live} creates; none for a job outside the database. */
  default List<View> views() {
    return this instanceof Views v ? v.views() : List.of();
  }

  /** The views' names for a sentence ({@code a}, {@code a and b}); empty for a job outside the database. */
  default Optional<String> named() {
    return Identifier.named(views().stream().map(View::name).toList());
  }

  /** Whether the writer is views that {@code deploy-live} creates. */
  default boolean byViews() {
    return this instanceof Views;
  }
}
