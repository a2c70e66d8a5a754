package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.repair.ConsumerView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A sharded repair given up on every shard that has one open, or on none while any shard cannot give it up. */
public final class ClusterAbandon {

  private final Shards shards;
  private final TableSpec spec;

  public ClusterAbandon(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /**
   * Gives the repair up on every shard that has one open, with the operator's reason, so that the next
   * backfill starts one new repair everywhere (a new B): each shard's boundary and ledger stop counting,
   * v2 stays, and a corrected view the repair deployed is dropped. Refused, nothing abandoned, while
   * consumers read v2 on any node or an operation (a backfill, a swap) holds any shard's repair; a shard
   * that refuses midway is named with the shards already abandoned. An empty value: nothing was open there.
   */
  public Map<Shard, Optional<Repair>> abandon(String confirmation, String reason) {
    if (!spec.targetTable().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To abandon the repair on every shard, confirm with the target's "
          + "name, " + spec.targetTable() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '"
          + confirmation + "')") + ".");
    }
    if (reason == null || reason.isBlank()) {
      throw new InvalidInputException("reason", "Abandoning a repair needs a written reason; it goes to every shard's "
          + "audit trail and the repair's history.");
    }
    record Now(Optional<Repair> repair, Gate.Version reads) {}
    Map<Shard, Now> now = shards.each("abandonment", s -> new Now(s.engine().repairs().current(spec),
        new ConsumerView(s.database().sql(), spec).reads()));
    List<String> blocking = new ArrayList<>();
    now.forEach((s, st) -> {
      if (st.reads() == Gate.Version.V2) {
        blocking.add(s.name() + ": consumers read v2 (roll back first)");
      }
      st.repair().flatMap(Repair::operation).ifPresent(o -> blocking.add(s.name() + ": " + o.describe()));
    });
    if (!blocking.isEmpty()) {
      throw new StepRefusedException("abandon", "The repair is not abandoned on any shard: " + String.join("; ",
          blocking) + ".", blocking, Optional.empty());
    }
    Map<Shard, Optional<Repair>> done = new LinkedHashMap<>();
    for (Shard s : shards.all()) {
      boolean open = now.get(s).repair().filter(r -> !r.phase().ended()).isPresent();
      if (!open) {
        done.put(s, Optional.empty());
        continue;
      }
      try {
        done.put(s, Optional.of(s.engine().repairs().abandon(spec, confirmation, reason)));
      } catch (RuntimeException e) {
        List<String> abandoned = done.entrySet().stream().filter(d -> d.getValue().isPresent())
            .map(d -> d.getKey().name()).toList();
        String sentence = "The repair could not be abandoned on " + s.name() + ": " + e.getMessage()
            + (abandoned.isEmpty() ? " No shard was abandoned." : " It was abandoned on " + String.join(", ", abandoned)
            + "; abandon again once " + s.name() + " can be.");
        if (e instanceof HeldByAnotherProcessException held) {
          throw held.restated("abandon", sentence);
        }
        throw new StepRefusedException("abandon", sentence, List.of(s.name()), Optional.empty());
      }
    }
    return done;
  }
}
