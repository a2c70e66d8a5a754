package dev.cutover.engine.cluster;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.repair.LiveWriterNotes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The corrected live writer of a sharded repair declared deployed on every shard, or on none: every
 * shard's open repair must have pinned the same B, which the writer starts from everywhere.
 */
public final class ClusterDeclaration {

  private final Shards shards;
  private final TableSpec spec;

  public ClusterDeclaration(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /**
   * Declares {@code writer} deployed on every shard. Refused, nothing written, for a description that
   * is not one line of at most 200 characters, or while any shard has no open repair with a boundary,
   * one whose writer is a corrected view, or a boundary of its own.
   */
  public Map<Shard, LiveWriterNote.Declared> declare(String writer) {
    String words = LiveWriterNotes.words(writer, spec);
    Map<Shard, Optional<Repair>> open = shards.each("declaration", s -> s.engine().repairs().current(spec)
        .filter(r -> !r.phase().ended()));
    List<String> blocking = new ArrayList<>();
    Optional<HourPartition> b = Optional.empty();
    for (Map.Entry<Shard, Optional<Repair>> e : open.entrySet()) {
      Optional<Repair> r = e.getValue();
      Optional<LiveWriterNotes.Refusal> refusal = LiveWriterNotes.refusal(r);
      if (refusal.isPresent()) {
        blocking.add(e.getKey().name() + ": " + switch (refusal.get()) {
          case NO_BOUNDARY -> "no repair under way with a boundary (run backfill first)";
          case CORRECTED_VIEW -> "its live writer is the corrected view " + r.get().correctedViews().orElseThrow();
          case CUT_OVER -> "cut over";
        });
      } else if (b.isPresent() && !b.equals(r.get().boundary())) {
        blocking.add(e.getKey().name() + ": B = " + r.get().boundary().get() + ", not " + b.get());
      } else {
        b = r.get().boundary();
      }
    }
    if (!blocking.isEmpty()) {
      throw new StepRefusedException("declare-live", "The corrected live writer is declared on no shard: "
          + String.join("; ", blocking) + ".", blocking, Optional.empty());
    }
    Map<Shard, LiveWriterNote.Declared> done = new LinkedHashMap<>();
    for (Shard s : shards.all()) {
      done.put(s, s.engine().repairs().declareLiveWriter(spec, words));
    }
    return done;
  }
}
