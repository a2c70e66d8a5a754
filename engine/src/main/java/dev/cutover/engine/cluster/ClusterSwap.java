package dev.cutover.engine.cluster;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.UnfinishedSwap;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.repair.ConsumerView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * Consumers switched on every node of a cluster, all or nothing: refused with nothing changed unless every
 * node's gate is open and every shard's repair has the same B; then node by node, each verified; when a node
 * fails, the nodes already switched are switched back, newest first, and the refusal names the node and says
 * what every node reads.
 */
public final class ClusterSwap {

  private static final int SWITCH_BACK_ATTEMPTS = 4;

  private final Shards shards;
  private final TableSpec spec;

  public ClusterSwap(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /**
   * A cutover ({@code forward}) or a rollback on every node; {@code listener} hears each node once it switched. A
   * rollback's {@code reason} goes to every node's audit trail with its switch.
   */
  public Map<Shard, SwapResult> swap(boolean forward, String confirmation, Optional<String> reason,
      BiConsumer<Shard, SwapResult> listener) {
    String step = forward ? "cutover" : "rollback";
    String to = forward ? "v2" : "v1";
    String from = forward ? "v1" : "v2";
    Map<Shard, Gate> gates = shards.each(step + " gate", s -> forward ? s.engine().cutovers().gate(spec)
        : s.engine().cutovers().rollbackGate(spec));
    List<String> closed = gates.entrySet().stream().filter(e -> !e.getValue().open()).map(e -> e.getKey().name() + ": "
        + e.getValue().unmet().stream().map(c -> c.name() + " (" + c.detail() + ")").collect(Collectors.joining(", ")))
        .toList();
    if (!closed.isEmpty()) {
      throw new StepRefusedException(step, "The " + step + " is refused: the gate is closed on " + closed.size() + " of "
          + gates.size() + " nodes: " + String.join("; ", closed) + ". No node was switched.", closed, Optional.empty());
    }
    Map<Shard, Optional<HourPartition>> boundaries = shards.each("read the repairs", s -> s.engine().repairs()
        .current(spec).flatMap(r -> r.boundary()));
    if (boundaries.values().stream().distinct().count() > 1) {
      List<String> each = boundaries.entrySet().stream().map(e -> e.getKey().name() + ": B = "
          + e.getValue().map(Object::toString).orElse("none")).toList();
      throw new StepRefusedException(step, "The " + step + " is refused: the shards' repairs have different boundaries ("
          + String.join(", ", each) + "). No node was switched.", each, Optional.empty());
    }
    // Written on every node before the first switches: a process that dies from here on leaves a swap that the next
    // command on the repair finds and finishes (finishUnfinished), instead of nodes on two versions and no record.
    SwapIntent intent = new SwapIntent(shards, spec);
    SwapIntent.Intent written = intent.begin(forward, boundaries.values().iterator().next());
    try {
      return switchEvery(intent, step, from, to, forward, confirmation, reason, listener);
    } finally {
      intent.letGo(written);
    }
  }

  private Map<Shard, SwapResult> switchEvery(SwapIntent intent, String step, String from, String to, boolean forward,
      String confirmation, Optional<String> reason, BiConsumer<Shard, SwapResult> listener) {
    Map<Shard, SwapResult> done = new LinkedHashMap<>();
    for (Shard s : shards.all()) {
      try {
        SwapResult r = forward ? s.engine().cutovers().cutover(spec, confirmation)
            : s.engine().cutovers().rollback(spec, confirmation, reason, dev.cutover.engine.api.Progress.NONE);
        done.put(s, r);
        if (!r.verified()) {
          throw new IllegalStateException(r.verification());
        }
        listener.accept(s, r);
      } catch (RuntimeException e) {
        StepRefusedException refused = undo(step, from, to, forward, s, e, done, confirmation);
        if (intent.reads().values().stream().distinct().count() == 1) {
          intent.end(); // every node reads one version again; otherwise the intent stays for the next command
        }
        throw refused;
      }
    }
    intent.end();
    return done;
  }

  /** How long an intent whose process runs on another host is taken as under way: its host cannot be asked. */
  static final java.time.Duration PATIENCE = java.time.Duration.ofMinutes(10);

  /**
   * Finishes a swap of every node that its process did not finish (it died, or its host slept), as the nodes
   * allow: when every node reads one version the intent just goes; when some switched and the others' gates are
   * open, those are switched too (forward); else the switched ones are switched back. Says what it found and what
   * it did; empty when no swap was left unfinished. A swap whose process still runs is only named.
   */
  public Optional<UnfinishedSwap> finishUnfinished(String confirmation) {
    SwapIntent intents = new SwapIntent(shards, spec);
    Optional<SwapIntent.Intent> open = intents.open();
    if (open.isEmpty()) {
      return Optional.empty();
    }
    SwapIntent.Intent i = open.get();
    String what = capitalized(i.describe());
    Map<Shard, Optional<Gate.Version>> reads = intents.reads();
    if (!SwapIntent.abandoned(i, PATIENCE)) {
      return open(what + " is under way: its process still runs. " + readsSentence(reads));
    }
    List<String> silent = reads.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(e -> e.getKey().name())
        .toList();
    if (!silent.isEmpty()) {
      return open(what + " did not finish, and " + String.join(", ", silent) + " does not answer, so it cannot be "
          + "finished yet. " + readsSentence(reads) + " Run status again once every node answers.");
    }
    List<Shard> switched = reads.entrySet().stream().filter(e -> e.getValue().get() == i.to()).map(Map.Entry::getKey)
        .toList();
    List<Shard> not = reads.entrySet().stream().filter(e -> e.getValue().get() != i.to()).map(Map.Entry::getKey)
        .toList();
    if (not.isEmpty()) {
      intents.end();
      return settled(what + " switched every node but its process ended before it recorded so; every node reads "
          + name(i.to()) + ": the swap is finished.");
    }
    if (switched.isEmpty()) {
      intents.end();
      return settled(what + " ended before any node switched; every node reads " + name(i.from()) + " as before.");
    }
    Map<Shard, Gate> gates = new LinkedHashMap<>();
    not.forEach(s -> gates.put(s, i.forward() ? s.engine().cutovers().gate(spec) : s.engine().cutovers().rollbackGate(spec)));
    List<String> closed = gates.entrySet().stream().filter(e -> !e.getValue().open()).map(e -> e.getKey().name()
        + " (" + e.getValue().unmet().stream().map(Gate.Condition::name).collect(Collectors.joining(", ")) + ")").toList();
    String had = what + " had switched " + String.join(", ", switched.stream().map(Shard::name).toList()) + " to "
        + name(i.to()) + " when its process ended";
    try {
      if (closed.isEmpty()) {
        for (Shard s : not) {
          if (i.forward()) {
            s.engine().cutovers().cutover(spec, confirmation);
          } else {
            s.engine().cutovers().rollback(spec, confirmation);
          }
        }
        intents.end();
        return settled(had + "; the other nodes' gates were open, so " + String.join(", ", not.stream()
            .map(Shard::name).toList()) + " switched now: every node reads " + name(i.to()) + ".");
      }
      for (Shard s : switched.reversed()) {
        switchBack(s, i.forward(), confirmation, Optional.empty());
      }
      intents.end();
      return settled(had + "; the gate of " + String.join(", ", closed) + " is closed now, so those were switched "
          + "back: every node reads " + name(i.from()) + " as before.");
    } catch (RuntimeException e) {
      return open(had + "; finishing it failed (" + e.getMessage() + "). " + readsSentence(intents.reads())
          + " Run status again to finish it.");
    }
  }

  private static Optional<UnfinishedSwap> settled(String sentence) {
    return Optional.of(new UnfinishedSwap(sentence, true));
  }

  private static Optional<UnfinishedSwap> open(String sentence) {
    return Optional.of(new UnfinishedSwap(sentence, false));
  }

  private static String readsSentence(Map<Shard, Optional<Gate.Version>> reads) {
    return "Now " + String.join(", ", reads.entrySet().stream().map(e -> e.getKey().name() + " reads "
        + e.getValue().map(ClusterSwap::name).orElse("? (no answer)")).toList()) + ".";
  }

  private static String name(Gate.Version v) {
    return v == Gate.Version.V2 ? "v2" : v == Gate.Version.V1 ? "v1" : "neither version";
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** Switches back every node already switched, and the failed one if it did switch; says what each reads. */
  private StepRefusedException undo(String step, String from, String to, boolean forward, Shard failed,
      RuntimeException cause, Map<Shard, SwapResult> done, String confirmation) {
    List<Shard> back = new ArrayList<>(done.keySet());
    Optional<Boolean> failedSwitched = done.containsKey(failed) ? Optional.of(true) : readsNew(failed, forward);
    if (!done.containsKey(failed) && failedSwitched.orElse(false)) {
      back.add(failed); // its exchange went through before the failure
    }
    java.util.Collections.reverse(back);
    // The consumer view reads every shard: while a node does not answer, its rows cannot be compared, and a query
    // that fans out to a node that is gone is cut off, which aborts the embedded engine on the nodes it reached.
    List<String> silent = shards.all().stream().filter(s -> !s.database().ping(java.time.Duration.ofSeconds(3))
        .answering()).map(Shard::name).toList();
    Optional<String> unreadable = silent.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", silent)
        + " did not answer, and the view reads every shard");
    List<String> undone = new ArrayList<>();
    List<String> stuck = new ArrayList<>();
    for (Shard s : back) {
      try {
        switchBack(s, forward, confirmation, unreadable);
        undone.add(s.name());
      } catch (RuntimeException e) {
        // The exchange may have gone through and only what followed failed (its verification reads every shard,
        // the failed one too): what the node's view reads now decides.
        if (readsNew(s, !forward).orElse(false)) {
          undone.add(s.name() + " (not verified: " + e.getMessage() + ")");
        } else {
          stuck.add(s.name() + " (" + e.getMessage() + ")");
        }
      }
    }
    String others = failedSwitched.isPresent() ? "" : " " + failed.name() + " did not answer afterwards; its exchange "
        + "is one atomic statement, so its consumers read one version whole, most likely " + from + " (the failure came "
        + "before or during its switch): check it with status on that node once it answers, and switch it back if it "
        + "reads " + to + ".";
    String sentence = "The " + step + " failed on " + failed.name() + ": " + cause.getMessage() + " "
        + (back.isEmpty() ? "No node had switched" + (failedSwitched.isPresent() ? "; every node reads " + from
            + " as before." : "." + others)
            : stuck.isEmpty() ? "The nodes already switched (" + String.join(", ", undone) + ") were switched back to "
                + from + unreadable.map(u -> ", as their views' definitions show (" + u + ", so their rows were not "
                + "compared)").orElse("") + "." + (failedSwitched.isPresent() ? " Every node reads " + from
                + " as before." : others)
            : "Switching back failed on " + String.join(", ", stuck) + ": those nodes still read " + to + "; "
                + (undone.isEmpty() ? "" : String.join(", ", undone) + " read " + from + " again. ") + "Run the "
                + (forward ? "rollback" : "cutover") + " again once every node answers." + others);
    if (cause instanceof HeldByAnotherProcessException held && done.isEmpty()) {
      return held.restated(step, sentence); // no node switched: the same step can be tried again later
    }
    List<String> unmet = new ArrayList<>(List.of(failed.name()));
    return new StepRefusedException(step, sentence, unmet, Optional.empty());
  }

  /**
   * Switches one node back, trying again a failure that can pass (a connection the node closed while the
   * other nodes were switching): leaving a node on the other version is the one outcome to avoid.
   */
  private void switchBack(Shard s, boolean forward, String confirmation, Optional<String> unreadable) {
    for (int attempt = 1; ; attempt++) {
      try {
        if (unreadable.isPresent()) {
          s.engine().cutovers().swapUnverified(spec, confirmation, forward ? Gate.Version.V1 : Gate.Version.V2,
              unreadable.get());
        } else if (forward) {
          s.engine().cutovers().rollback(spec, confirmation);
        } else {
          s.engine().cutovers().cutover(spec, confirmation);
        }
        return;
      } catch (CutoverException e) {
        if (!e.retryable() || attempt == SWITCH_BACK_ATTEMPTS || readsNew(s, !forward).orElse(false)) {
          throw e;
        }
        try {
          Thread.sleep(500L * attempt);
        } catch (InterruptedException i) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /** Whether the node's consumers read the version the step switches to; empty when it does not answer. */
  private Optional<Boolean> readsNew(Shard s, boolean forward) {
    try {
      Gate.Version now = new ConsumerView(s.database().sql(), spec).reads();
      return Optional.of(now == (forward ? Gate.Version.V2 : Gate.Version.V1));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
