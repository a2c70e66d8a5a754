package dev.cutover.engine.cluster;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.connect.Database;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One engine per shard of a cluster, each on its own node's connection as the same operator and in the
 * same working database, so that every shard keeps its own ledger, repair and reports next to its
 * data. A step on every shard runs on all of them at once and either gives every shard's answer or
 * names each shard that failed and why.
 */
public final class Shards implements AutoCloseable {

  /** A shard's node and the engine that works on it. */
  public record Shard(ClusterNodes.Node node, Database database, Engine engine) {
    public String name() {
      return node.toString();
    }

    /** The shard as a repair names it to its callers. */
    public dev.cutover.engine.api.ShardRef ref() {
      return new dev.cutover.engine.api.ShardRef(node.shard(), name());
    }
  }

  private final List<Shard> shards;

  private Shards(List<Shard> shards) {
    this.shards = List.copyOf(shards);
  }

  /**
   * Opens an engine on every node of {@code cluster}, as the entry's operator and in its working
   * database. A node that does not answer is refused by name, and nothing stays open.
   */
  public static Shards open(Database entry, String cluster, ClusterNodes.Addresses addresses) {
    List<ClusterNodes.Node> nodes = ClusterNodes.read(entry.sql(), cluster, addresses);
    ConnectionProfile profile = entry.profile();
    List<Shard> opened = new ArrayList<>();
    try {
      for (ClusterNodes.Node node : nodes) {
        Database db;
        try {
          db = Database.open(ConnectionProfile.of(node.jdbcUrl(), profile.user(), profile.password(),
              profile.database()).withHooks(profile.hooks()));
        } catch (CutoverException e) {
          throw new StepRefusedException("connect", "Cutover cannot reach " + node + " of cluster " + cluster + ": "
              + e.getMessage(), List.of(node.toString()), Optional.empty());
        }
        opened.add(new Shard(node, db, new Engine(db)));
      }
      return new Shards(opened);
    } catch (RuntimeException e) {
      opened.forEach(s -> s.database().close());
      throw e;
    }
  }

  public List<Shard> all() {
    return shards;
  }

  /** The shard of number {@code n} (from 1). */
  public Shard shard(int n) {
    return shards.stream().filter(s -> s.node().shard() == n).findFirst().orElseThrow(() ->
        new IllegalArgumentException("no shard " + n));
  }

  /**
   * Runs {@code step} on every shard at once and returns each shard's answer, shard by shard; when any
   * shard fails, waits for the others and refuses with every failure, each named by its shard.
   */
  public <T> Map<Shard, T> each(String step, Function<Shard, T> work) {
    Map<Shard, T> out = new LinkedHashMap<>();
    Map<Shard, RuntimeException> failed = new LinkedHashMap<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Map<Shard, Future<T>> futures = new LinkedHashMap<>();
      shards.forEach(s -> futures.put(s, pool.submit(() -> work.apply(s))));
      for (var f : futures.entrySet()) {
        try {
          out.put(f.getKey(), f.getValue().get());
        } catch (ExecutionException e) {
          failed.put(f.getKey(), e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StepRefusedException(step, "The " + step + " was interrupted before every shard answered.");
        }
      }
    }
    if (!failed.isEmpty()) {
      if (failed.size() == 1 && shards.size() == 1) {
        throw failed.values().iterator().next();
      }
      throw refusal(step, failed);
    }
    return out;
  }

  /**
   * One refusal for every shard that failed a step. Shards refused with the same sentence are named
   * together before it, so that a refusal the spec or the data brings on every shard alike (a plan's
   * window, a preflight check) reads once, not once per shard; {@link StepRefusedException#unmet()}
   * keeps each shard's own line.
   */
  static StepRefusedException refusal(String step, Map<Shard, ? extends RuntimeException> failed) {
    List<String> each = failed.entrySet().stream().map(e -> e.getKey().name() + ": " + e.getValue().getMessage())
        .toList();
    Map<String, List<String>> byReason = new LinkedHashMap<>();
    failed.forEach((shard, e) -> byReason.computeIfAbsent(String.valueOf(e.getMessage()), m -> new ArrayList<>())
        .add(shard.name()));
    String reasons = byReason.entrySet().stream().map(e -> String.join(", ", e.getValue())
        + (byReason.size() == 1 && failed.size() > 1 ? ", each for the same reason: " : ": ") + e.getKey())
        .collect(Collectors.joining("; "));
    String sentence = "The " + step + " failed on " + failed.size() + " shard(s): " + reasons;
    // Every shard that failed was held by another process: the step as a whole can be tried again later.
    if (failed.values().stream().allMatch(e -> e instanceof HeldByAnotherProcessException)) {
      return ((HeldByAnotherProcessException) failed.values().iterator().next()).restated(step, sentence);
    }
    return new StepRefusedException(step, sentence, each, Optional.empty());
  }

  @Override
  public void close() {
    shards.forEach(s -> s.database().close());
  }
}
