package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.ShardedWorld;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sharded repair from the command line, on the embedded local cluster of three shards ({@code --shards 3}):
 * plan, backfill, reconcile, cutover, rollback and cutover again on every node, each step's JSON fitting its
 * contract; the same commands as on one server take the sharded spec, and one for one server's table refuses it.
 */
class ClusterCommandsTest {

  @TempDir Path dir;
  private ShardedWorld world;
  private Path spec;

  @BeforeEach
  void cluster() throws Exception {
    world = ShardedWorld.create(dir.resolve("data").resolve("cluster"), 3, 2);
    spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
  }

  @AfterEach
  void close() {
    world.close();
  }

  private CommandRun run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--spec", spec.toString(), "--data-dir", dir.resolve("data").toString(), "--shards", "3"));
    return CommandRun.of(all);
  }

  /** How many acknowledgements each shard's repair holds, in shard order, read from each shard's working database. */
  private List<Integer> acknowledgementsOnEachShard() {
    List<Integer> each = new ArrayList<>();
    for (var node : world.cluster().nodes()) {
      try (Database db = Database.open(node.profile("cutover"))) {
        each.add(new Engine(db).reconciliations().acknowledgements(world.spec()).size());
      }
    }
    return each;
  }

  @Test
  void theWholeProcedureRunsOnEveryShardFromTheCommandLine() throws Exception {
    // The repair's steps are the same commands as on one server, retention and cleanup included.
    CommandRun retention = run("retention");
    assertEquals(0, retention.exit(), retention.err());
    assertTrue(retention.out().contains("Consumers still read v1; the horizon starts at the cutover."),
        retention.out());
    CommandRun cleanup = run("cleanup");
    assertEquals(0, cleanup.exit(), cleanup.err());
    // The preflight of every shard, read as one: the cluster's own checks among them, each said once for all shards.
    CommandRun preflight = run("preflight");
    assertEquals(0, preflight.exit(), preflight.out() + preflight.err());
    assertEquals(1, preflight.out().lines().filter(l -> l.matches("PASS\\s+sharding\\s.*")).count(),
        "one line for the check of every shard: " + preflight.out());
    CommandRun oneRun = run("status", "--run", "r1");
    assertEquals(2, oneRun.exit(), oneRun.err());
    assertTrue(oneRun.err().contains("There is no run r1 of world.visits_v2"), oneRun.err());

    CommandRun console = CommandRun.of(List.of("--shards", "1", "--data-dir", dir.resolve("data").toString()));
    assertEquals(2, console.exit(), "no console opens on a cluster of one shard: " + console.err());
    assertTrue(console.err().contains("--shards 1 is not a number of shards from 2 to"), console.err());

    CommandRun deploy = run("deploy-live", "--confirm");
    assertEquals(2, deploy.exit(), deploy.out() + deploy.err());
    assertTrue(deploy.err().contains("names no corrected view to deploy"), deploy.err());

    CommandRun plan = run("plan");
    assertEquals(0, plan.exit(), plan.err());
    // The plan of every shard as one server's is printed: the same lines and document, said to be every shard's.
    assertTrue(plan.out().startsWith("On every shard of cluster cutover_local (3 shards), below one boundary B for "
        + "every shard;"), plan.out());
    var planned = dev.cutover.app.output.JsonOutput.mapper().readTree(JsonContract.requireDocument("plan",
        run("plan", "--json")));

    CommandRun early = run("declare-live", "--writer", "visits-job 4.2");
    assertEquals(6, early.exit(), early.out() + early.err());
    assertTrue(early.err().contains("The corrected live writer is declared on no shard: ") && early.err().contains(
        "no repair under way with a boundary (run backfill first)"), early.err());

    CommandRun bare = run("backfill", "--acknowledge", "world.visits_alerts_mv");
    assertEquals(2, bare.exit(), bare.out() + bare.err());
    assertTrue(bare.err().startsWith("error: --acknowledge world.visits_alerts_mv needs --reason TEXT: add why "
        + "replaying history through it is safe"), "refused before any shard is started or joined: " + bare.err());

    // One run over every shard, printed as one server's is: its id, its hours every shard's, the next step.
    CommandRun backfill = run("backfill", "--concurrency", "1", "--json");
    assertEquals(0, backfill.exit(), backfill.out() + backfill.err());
    var ran = dev.cutover.app.output.JsonOutput.mapper().readTree(JsonContract.requireDocument("backfill", backfill));
    assertEquals("succeeded", ran.get("run").get("state").asString(), backfill.out());
    String runId = ran.get("run").get("id").asString();
    assertTrue(backfill.err().contains("Run " + runId + " on every shard of cluster cutover_local (3 shards), each "
        + "shard's part under " + runId + "-s1"), backfill.err());
    assertEquals(1, ran.get("run").get("parameters").get("concurrency").asInt(), "the throttle given, on each shard");
    CommandRun again = run("backfill", "--resume", runId);
    assertEquals(6, again.exit(), again.out() + again.err());
    assertTrue(again.err().contains("There is nothing to resume of run " + runId + ": every shard's part of it "
        + "succeeded."), again.err());

    HourPartition b = HourPartition.of(java.time.Instant.parse(planned.get("boundary").asString()));
    assertTrue(plan.out().lines().anyMatch(l -> l.matches("\\s*boundary\\s+" + java.util.regex.Pattern.quote(
        dev.cutover.app.output.Text.hour(b)) + ".*")), plan.out());
    // A sample over every shard: each hour's figures are the cluster's.
    HourPartition sampled = b.plusHours(-2);
    CommandRun sample = run("sample", "--hour", sampled.toString());
    assertEquals(0, sample.exit(), sample.out() + sample.err());
    long rows;
    try (var entry = world.entry()) {
      rows = entry.sql().queryLong("v1's rows of the hour over the cluster", "SELECT count() FROM world.visits_v1_all "
          + "WHERE hour = toDateTime(?, 'UTC')", sampled.epochSecond());
    }
    assertTrue(sample.out().lines().anyMatch(l -> l.startsWith(dev.cutover.app.output.Text.hour(sampled))
        && l.contains("rows") && l.contains(dev.cutover.app.output.Text.count(rows))), rows + " rows: " + sample.out());
    // The operator's own writer, declared on every shard: each shard's repair waits for its first hour from B.
    CommandRun declared = run("declare-live", "--writer", "visits-job 4.2", "--json");
    assertEquals(0, declared.exit(), declared.out() + declared.err());
    var declaration = dev.cutover.app.output.JsonOutput.mapper().readTree(JsonContract.requireDocument("declare-live",
        declared));
    assertEquals("declared", declaration.get("state").asString(), declared.out());
    assertEquals(b.start().toString(), declaration.get("boundary").asString(), declared.out());
    for (var node : world.cluster().nodes()) { // each shard's repair, in the working database the commands use
      RepairStatus.NextStep next;
      try (Database db = Database.open(node.profile("cutover"))) {
        next = new Engine(db).repairs().status(world.spec()).next();
      }
      assertEquals(RepairStatus.Kind.WAIT_FOR_LIVE_WRITER, next.kind(), next.sentence());
      assertTrue(next.sentence().startsWith("The corrected live writer (visits-job 4.2) was declared deployed from "
          + "B = " + b + " by "), next.sentence());
    }
    // status reads the repair over every shard as one snapshot, then each shard's line.
    CommandRun waiting = run("status");
    assertEquals(3, waiting.out().lines().filter(l -> l.contains(", live writer declared (visits-job 4.2), consumers "
        + "read V1")).count(), waiting.out());
    assertEquals(1, waiting.out().lines().filter(l -> l.trim().matches("next\\s+The corrected live writer \\(visits-job "
        + "4\\.2\\) was declared deployed from B = " + java.util.regex.Pattern.quote(b.toString()) + " .*")).count(),
        "the next step said once, for every shard: " + waiting.out());
    assertTrue(waiting.out().contains("Consumers read v1 ("), waiting.out());
    world.shards.forEach(w -> w.writeLiveV2(b, w.liveEdge.plusHours(1)));
    // A retried append on one shard: ack goes to the shard where it differs, --withdraw takes it back there, a
    // second --withdraw finds none in force on any shard, and the operator accepts it again.
    HourlyWorld retried = world.shards.stream().filter(w -> w.sql.queryLong("rows of the hour", "SELECT count() FROM "
        + "visits_v1 WHERE hour = toDateTime(?, 'UTC')", w.busyHour(3).epochSecond()) > 0).findFirst().orElseThrow();
    String hour = retried.busyHour(3).toString().replace(' ', 'T');
    retried.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = "
        + "toDateTime(?, 'UTC')", retried.busyHour(3).epochSecond());
    CommandRun acked = run("ack", "--hour", hour, "--reason", "retried append");
    assertEquals(0, acked.exit(), acked.out() + acked.err());
    assertTrue(acked.out().startsWith("Acknowledged " + dev.cutover.app.output.Text.hour(retried.busyHour(3))
        + " (whole hour) on every shard of cluster cutover_local (3 shards): "), acked.out());
    List<Integer> where = world.shards.stream().map(w -> w == retried ? 1 : 0).toList();
    assertEquals(where, acknowledgementsOnEachShard(), "accepted on the shard where the hour differs, alone");
    CommandRun withdrawn = run("ack", "--withdraw", "--hour", hour, "--reason", "accepted before it was looked at");
    assertEquals(0, withdrawn.exit(), withdrawn.out() + withdrawn.err());
    assertTrue(withdrawn.out().startsWith("Withdrew the acknowledgement of "), withdrawn.out());
    assertEquals(List.of(0, 0, 0), acknowledgementsOnEachShard());
    CommandRun none = run("ack", "--withdraw", "--hour", hour, "--reason", "again");
    assertEquals(2, none.exit(), none.out() + none.err());
    assertTrue(none.err().contains("No shard holds an acknowledgement of"), none.err());
    assertEquals(0, run("ack", "--hour", hour, "--reason", "retried append, looked at").exit());

    CommandRun reconcile = run("reconcile");
    assertEquals(0, reconcile.exit(), reconcile.out() + reconcile.err());
    // The verdict over every shard as one, in one server's words: the hour acknowledged on the shard where it differs.
    assertTrue(reconcile.out().contains(": acknowledged"), reconcile.out());
    CommandRun overlap = run("reconcile", "--window", "overlap", "--export", "csv", dir.resolve("overlap.csv")
        .toString());
    assertEquals(0, overlap.exit(), overlap.out() + overlap.err());
    assertTrue(java.nio.file.Files.readString(dir.resolve("overlap.csv")).startsWith("section,hour,"),
        "a narrower window and its export work over every shard too");

    CommandRun cutover = run("cutover", "--confirm", "visits");
    assertEquals(0, cutover.exit(), cutover.out() + cutover.err());
    assertTrue(cutover.out().startsWith("cutover on every node of cluster cutover_local (3 nodes): V1 -> V2 in "),
        cutover.out());
    assertEquals(3, cutover.err().lines().filter(l -> l.startsWith("shard ") && l.contains(": V1 -> V2; ")).count(),
        "each node said as it switched: " + cutover.err());
    CommandRun status = run("status");
    assertEquals(0, status.exit(), status.out());
    assertEquals(3, status.out().lines().filter(l -> l.contains("consumers read V2")).count(), status.out());
    var one = dev.cutover.app.output.JsonOutput.mapper().readTree(JsonContract.requireDocument("status",
        run("status", "--json")));
    assertEquals("cut_over", one.get("repair").get("phase").asString(), one.toString());
    assertEquals("v2", one.get("consumers_read").asString(), one.toString());
    assertEquals(3, one.get("shards").size(), one.toString());
    assertEquals(1, one.get("runs").size(), "one backfill, one run over every shard: " + one.get("runs"));
    assertEquals(one.get("runs").get(0).get("id").asString(), one.get("ledger").get("run").asString());

    CommandRun rollback = run("rollback", "--confirm", "visits", "--json");
    assertEquals(0, rollback.exit(), rollback.out() + rollback.err());
    JsonContract.requireDocument("rollback", rollback);
    assertEquals(3, run("status").out().lines().filter(l -> l.contains("consumers read V1")).count());
    assertEquals(0, run("cutover", "--confirm", "visits").exit());
    // v1 is kept on every node until the last node's horizon: dropping it now is refused on every node alike.
    CommandRun kept = run("retention");
    assertEquals(0, kept.exit(), kept.err());
    assertTrue(kept.out().contains("; v1 may be dropped after "), kept.out());
    CommandRun tooSoon = run("retention", "--drop-v1");
    assertEquals(6, tooSoon.exit(), tooSoon.out() + tooSoon.err());
    assertTrue(tooSoon.err().contains("v1 must be kept until") && tooSoon.err().contains("Nothing was dropped on any "
        + "node."), tooSoon.err());

    CommandRun held = run("abandon", "--confirm", "visits_v2", "--reason", "the fix is taken back");
    assertEquals(6, held.exit(), held.out() + held.err());
    assertTrue(held.err().contains("not abandoned on any shard") && held.err().contains("consumers read v2 (roll "
        + "back first)"), held.err());
    assertEquals(0, run("rollback", "--confirm", "visits").exit());
    CommandRun abandon = run("abandon", "--confirm", "visits_v2", "--reason", "the fix is taken back",
        "--json");
    assertEquals(0, abandon.exit(), abandon.out() + abandon.err());
    JsonContract.requireDocument("abandon", abandon);
    // `cluster …` is an alias for this release: the plain verb itself, with a note on stderr.
    CommandRun alias = run("cluster", "status", "--json");
    assertTrue(alias.err().contains("note: ./cutover cluster status is an alias kept for this release"), alias.err());
    assertTrue(JsonContract.requireDocument("status", alias).contains("\"command\":\"status\""), alias.out());
    assertEquals(3, alias.out().split("\"state\":\"abandoned\"", -1).length - 1, alias.out());
  }
}
