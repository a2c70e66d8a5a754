package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.sql.NameClaims;
import dev.cutover.engine.tables.TableNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A swap across nodes, written down before its first node switches, so that a process that dies in the middle
 * (a laptop that sleeps, a kill) leaves a record a later command finds and finishes. The intent (which swap,
 * by whom, which nodes, B) is a claim on every node, made by compare-and-set in node order: of two processes
 * swapping at once, exactly one holds the first node's claim, and the other is refused as held before any node
 * switched. The claim goes once every node reads the version the swap switched to (or, undone, the one it came
 * from). Each node's own switch is its consumer view's definition and its repair's record, as on one server.
 */
public final class SwapIntent {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What is written on every node: the swap, its nodes and its boundary, who and when. */
  public record Intent(String id, String target, boolean forward, List<String> nodes, long boundary, String by,
      String host, long pid, long at) {

    String step() {
      return forward ? "cutover" : "rollback";
    }

    Gate.Version to() {
      return forward ? Gate.Version.V2 : Gate.Version.V1;
    }

    Gate.Version from() {
      return forward ? Gate.Version.V1 : Gate.Version.V2;
    }

    Repair.Actor actor() {
      return new Repair.Actor(by, host, pid);
    }

    String describe() {
      return "the " + step() + " " + id + " of every node, started by " + by + " on " + host + " (process " + pid
          + ") at " + Instant.ofEpochMilli(at);
    }
  }

  /** The intents this process is carrying out now: one of its own not among them was left by an earlier swap. */
  private static final java.util.Set<String> UNDER_WAY = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final Shards shards;
  private final TableSpec spec;
  private final String name;

  public SwapIntent(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
    this.name = claimName(TableNames.target(spec));
  }

  /** The claim's name for a target: readable, and unique per target by a digest of its full name. */
  static String claimName(String target) {
    return NameClaims.nameFor("swap_intent", target);
  }


  private NameClaims claims(Shard s) {
    return new NameClaims(s.database().sql(), Identifier.simple("database", s.database().server().database()));
  }

  /**
   * Writes the intent of a swap on every node, the first node's claim deciding: refused as held, with no node
   * switched and no claim left by this call, when another intent is open on any node.
   */
  Intent begin(boolean forward, Optional<dev.cutover.engine.api.HourPartition> boundary) {
    Intent intent = new Intent(UUID.randomUUID().toString().substring(0, 8), TableNames.target(spec), forward,
        shards.all().stream().map(Shard::name).toList(), boundary.map(b -> b.epochSecond()).orElse(0L),
        Operator.user(), Operator.host(), ProcessHandle.current().pid(), Instant.now().toEpochMilli());
    String note = JSON.writeValueAsString(intent);
    List<Shard> made = new ArrayList<>();
    for (Shard s : shards.all()) {
      if (!claims(s).claim("write the intent of the " + intent.step() + " on " + s.name(), name, note)) {
        made.forEach(m -> claims(m).dropQuietly(name));
        Intent other = read(s).orElse(null);
        throw new HeldByAnotherProcessException(intent.step(), other == null ? "swap" : other.step(), Optional.empty(),
            other == null ? new Repair.Actor("?", "?", 0) : other.actor(), other == null ? Instant.now()
                : Instant.ofEpochMilli(other.at()), "The " + intent.step() + " is refused: " + (other == null
                ? "another swap of every node" : other.describe()) + " is under way, or did not finish. No node was "
                + "switched.", "Run status: once that swap's process is gone, it finishes that swap, forward or back.");
      }
      made.add(s);
    }
    UNDER_WAY.add(intent.id());
    return intent;
  }

  /** This process no longer carries out {@code intent}: ended, or left for the next command to finish. */
  void letGo(Intent intent) {
    UNDER_WAY.remove(intent.id());
  }

  /**
   * Whether the process that wrote {@code intent} no longer carries it out: this process, once its swap has
   * returned; another on this host, once it is gone; one on another host after {@code patience}.
   */
  static boolean abandoned(Intent intent, java.time.Duration patience) {
    if (intent.pid() == ProcessHandle.current().pid() && intent.host().equals(Operator.host())) {
      return !UNDER_WAY.contains(intent.id());
    }
    return Operator.gone(intent.actor(), Instant.ofEpochMilli(intent.at()), patience, Instant.now());
  }

  /** The swap is over: every node reads one version. The claims go; one left on a silent node is finished later. */
  void end() {
    for (Shard s : shards.all()) {
      claims(s).dropQuietly(name);
    }
  }

  private Optional<Intent> read(Shard s) {
    try {
      return claims(s).find("read the intent of a swap on " + s.name(), name).flatMap(c -> parse(c.note()));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<Intent> parse(String note) {
    try {
      return Optional.of(JSON.readValue(note, Intent.class));
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }

  /** The open intent, as the first answering node that holds one has it. */
  Optional<Intent> open() {
    for (Shard s : shards.all()) {
      Optional<Intent> i = read(s);
      if (i.isPresent()) {
        return i;
      }
    }
    return Optional.empty();
  }

  /** What each node's consumers read now; empty for a node that does not answer. */
  Map<Shard, Optional<Gate.Version>> reads() {
    Map<Shard, Optional<Gate.Version>> out = new LinkedHashMap<>();
    for (Shard s : shards.all()) {
      try {
        out.put(s, Optional.of(new ConsumerView(s.database().sql(), spec).reads()));
      } catch (RuntimeException e) {
        out.put(s, Optional.empty());
      }
    }
    return out;
  }
}
