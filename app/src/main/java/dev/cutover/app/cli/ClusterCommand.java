package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.app.output.Text;
import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.api.ShardRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The repair of a table sharded over a cluster, the spec naming the cluster (docs/CLUSTER.md): every step on
 * every shard, through the node the connection options reach. With the embedded engine, {@code --shards N}
 * starts the local cluster of N shards on the data directory.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    subcommands = {ClusterCommand.PlanStep.class, ClusterCommand.BackfillStep.class, ClusterCommand.ReconcileStep.class, ClusterCommand.AckStep.class,
        ClusterCommand.CutoverStep.class, ClusterCommand.RollbackStep.class, ClusterCommand.StatusStep.class,
        ClusterCommand.DeployLiveStep.class, ClusterCommand.DeclareLiveStep.class, ClusterCommand.AbandonStep.class},
    description = {"An alias, kept for this release, of the plain verbs on a spec that names a cluster: "
        + "./cutover backfill --spec SHARDED.yaml runs on every shard, as ./cutover cluster backfill did "
        + "(docs/CLUSTER.md)."})
public final class ClusterCommand {

  private ClusterCommand() {}

  /** One shard's line in a document: its name and what the step said of it. */
  record ShardLine(int shard, String node, String state, String detail) {}

  /** {@code unfinishedSwap}: what finishing a swap of every node that its process left unfinished did, or null. */
  record Document(String command, boolean ok, String sentence, List<ShardLine> shards, String unfinishedSwap) {}

  abstract static class Step extends EngineCommand {
    /** Run by the plain verb on a sharded spec ({@code ./cutover backfill …}), not by the {@code cluster} alias. */
    private boolean hosted;

    @Override
    final int run(Session session, Engine engine) throws Exception {
      TableSpec spec = spec(session, engine);
      err().println("note: ./cutover cluster " + command.name() + " is an alias kept for this release; on a spec that "
          + "names a cluster, ./cutover " + command.name() + " runs on every shard.");
      err().flush();
      return on(session, spec);
    }

    /**
     * The step on every shard as the plain verb runs it when its spec names a cluster: it prints through that
     * command (its output options, its name in the document).
     */
    final int hostedBy(EngineCommand verb, Session session, TableSpec spec) throws Exception {
      command = verb.command;
      output = verb.output;
      hosted = true;
      return on(session, spec);
    }

    private int on(Session session, TableSpec spec) throws Exception {
      if (spec.cluster().isEmpty()) {
        throw new InvalidInputException("spec", "The spec " + spec.name() + " names no cluster; on one server, run "
            + "the same step without 'cluster' (./cutover " + command.name() + " …), or add cluster: {name, live, "
            + "target, sources} for a sharded table (docs/CLUSTER.md).");
      }
      // A swap of every node that its process left unfinished is finished first, forward or back, and said.
      return onShards(session, spec, (repair, found) -> {
        finished = found;
        return step(spec, repair);
      });
    }

    /** What finishing a swap left unfinished found and did, when there was one. */
    Optional<String> finished = Optional.empty();

    abstract TableSpec spec(Session session, Engine engine);

    abstract int step(TableSpec spec, ShardedRepair repair) throws Exception;

    int report(boolean ok, String sentence, List<ShardLine> shards, int failedExit) {
      List<String> lines = new ArrayList<>();
      shards.forEach(s -> lines.add(s.node() + ": " + s.state() + (s.detail().isEmpty() ? "" : "; " + s.detail())));
      lines.add(sentence);
      print(new Document((hosted ? "" : "cluster ") + command.name(), ok, sentence, shards, finished.orElse(null)),
          lines);
      return ok ? ExitCodes.OK : failedExit;
    }
  }

  abstract static class RangeStep extends Step {
    @Mixin SpecOptions options;

    @Override
    TableSpec spec(Session session, Engine engine) {
      return options.loadAny(session, engine);
    }

    ShardedRepair.ClusterPlan plan(ShardedRepair repair) {
      return repair.plan(options.from(), options.to(), options.boundary(), options.affected(), options::overrides);
    }
  }

  abstract static class SpecStep extends Step {
    @Mixin SpecFile specFile;

    @Override
    TableSpec spec(Session session, Engine engine) {
      return specFile.loadAny(session, engine);
    }
  }

  @Command(name = "plan", mixinStandardHelpOptions = true,
      description = "Plan the backfill of every shard over one range and one boundary; writes nothing.")
  static final class PlanStep extends RangeStep {
    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      ShardedRepair.ClusterPlan plan = plan(repair);
      List<ShardLine> lines = new ArrayList<>();
      plan.plans().forEach((s, p) -> lines.add(new ShardLine(s.shard(), s.node(), Text.hours(p.hours().size())
          + (p.carried().isEmpty() ? "" : " (" + p.computed().size() + " recomputed, " + p.carried().size()
          + " carried from v1)"),
          "live edge " + Text.hour(p.liveEdge()) + (p.pinned() ? ", B pinned by the repair" : "") + "; "
          + p.settings().concurrency() + " batch(es) at once" + (p.settings().rowsPerSecond() > 0 ? ", at most "
          + p.settings().rowsPerSecond() + " rows/s" : ""))));
      return report(true, "Every shard recomputes " + Text.window(plan.range()) + " below one boundary B = "
          + Text.hour(plan.boundary()) + ".", lines, ExitCodes.OK);
    }
  }

  @Command(name = "backfill", mixinStandardHelpOptions = true,
      description = {"Preflight every shard, then backfill every shard's own hours at once; each shard keeps its own "
          + "ledger. Nothing is written unless every shard's preflight passes.",
          "--resume continues every shard whose latest run did not succeed, from its ledger; the others are left "
              + "alone."})
  static final class BackfillStep extends RangeStep {
    @Option(names = "--resume", description = "Continue the shards whose latest run did not succeed.")
    boolean resume;

    @Mixin AcknowledgeOptions acknowledge;

    @Override
    void checkOptions() {
      acknowledge.list();
    }

    @Override
    int step(TableSpec spec, ShardedRepair repair) throws Exception {
      List<AcknowledgedDependent> acknowledged = acknowledge.list();
      ShardedRepair.ClusterRun run;
      if (resume) {
        if (options.from != null || options.to != null || options.boundary != null) {
          throw new InvalidInputException("resume", "A resumed run keeps its range and boundary; remove --from, --to "
              + "and --boundary.");
        }
        run = repair.resume(options::overrides, acknowledged, s -> e -> {});
      } else {
        dev.cutover.engine.Preflighted checked = repair.preflight(plan(repair), acknowledged);
        if (!checked.passed()) {
          List<ShardLine> lines = new ArrayList<>();
          checked.nodes().forEach((s, p) -> lines.add(new ShardLine(s.shard(), s.node(),
              p.passed() ? "passed" : "failed", String.join("; ", p.report().failures().stream().map(c -> c.name()
              + ": " + c.finding() + (c.fix().isEmpty() ? "" : " " + c.fix())).toList()))));
          return report(false, "The preflight failed; nothing was written on any shard. Fix what it lists and run "
              + "the backfill again.", lines, ExitCodes.BLOCKED);
        }
        err().println("Backfilling " + checked.nodes().size() + " shards, boundary B = "
            + Text.hour(checked.nodes().values().iterator().next().cleared().orElseThrow().plan().boundary())
            + ". Ctrl-C cancels every shard.");
        err().flush();
        run = repair.backfill(checked, s -> e -> {});
      }
      Map<ShardRef, RunRecord> ended;
      try {
        ended = run.await();
      } catch (InterruptedException e) {
        run.runs().values().forEach(h -> h.cancel());
        throw e;
      }
      List<ShardLine> lines = new ArrayList<>();
      ended.forEach((s, r) -> lines.add(new ShardLine(s.shard(), s.node(), r.state().name().toLowerCase(
          java.util.Locale.ROOT), "run " + r.id() + ", " + r.message())));
      List<String> failed = ShardedRepair.ClusterRun.failed(ended);
      return report(failed.isEmpty(), failed.isEmpty() ? "Every shard's history below B is backfilled."
          : failed.size() + " shard(s) did not finish; fix the cause and resume them: ./cutover backfill --resume "
              + "--spec " + SpecOptions.path(options.spec) + ".", lines, ExitCodes.QUERY);
    }
  }

  @Command(name = "reconcile", mixinStandardHelpOptions = true,
      description = "Reconcile v1 and v2 on every shard over the whole repair; the verdict is green only when every "
          + "shard's is (exit 6 otherwise).")
  static final class ReconcileStep extends SpecStep {
    @Option(names = "--keys", paramLabel = "N", defaultValue = "10000",
        description = "Most unexpected keys to list per shard (all are counted; default: ${DEFAULT-VALUE}).")
    int keys = 10_000;

    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      ShardedRepair.ClusterVerdict verdict = repair.reconcile(Reconciliation.Scope.REPAIR, keys);
      List<ShardLine> lines = new ArrayList<>();
      verdict.shards().forEach((s, r) -> lines.add(new ShardLine(s.shard(), s.node(), r.verdict().name()
          .toLowerCase(java.util.Locale.ROOT), r.window() + ", " + r.unexpectedKeys() + " unexpected key(s), "
          + r.coverage().size() + " coverage issue(s), report " + r.id())));
      return report(verdict.green(), verdict.sentence(), lines, ExitCodes.BLOCKED);
    }
  }

  @Command(name = "ack", mixinStandardHelpOptions = true,
      description = "Accept an unexpected difference, with a written reason, on every shard where it differs: a whole "
          + "hour, or one key (which lies on one shard); each acknowledgement is bound to the differences there now.")
  static final class AckStep extends SpecStep {
    @Option(names = "--hour", paramLabel = "HOUR", required = true, description = "The hour of the difference, UTC.")
    String hour;

    @Option(names = "--key", paramLabel = "VALUE", description = "The key's values in the spec's key order; repeat "
        + "for each. Leave out for the whole hour.")
    List<String> key = new ArrayList<>();

    @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why the difference is acceptable.")
    String reason;

    @Option(names = "--withdraw", description = "Take back the acknowledgement in force of this hour (or key) on "
        + "every shard that holds one.")
    boolean withdraw;

    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      dev.cutover.engine.api.HourPartition h = dev.cutover.engine.api.HourPartition.parse("hour", hour);
      if (withdraw) {
        List<ShardLine> lines = new ArrayList<>();
        repair.withdraw(h, key, reason).forEach((s, a) -> lines.add(new ShardLine(s.shard(), s.node(), a.isPresent()
            ? "withdrawn" : "none in force", a.map(x -> "made by " + x.by() + ": " + x.reason()).orElse(""))));
        return report(true, "Took back the acknowledgement of " + (key.isEmpty() ? "the whole hour" : "key " + key)
            + " at " + Text.hour(h) + " on every shard that held one; the next reconciliation judges its "
            + "differences again.", lines, ExitCodes.OK);
      }
      var accepted = repair.acknowledge(h, key, reason);
      List<ShardLine> lines = new ArrayList<>();
      accepted.forEach((s, f) -> lines.add(new ShardLine(s.shard(), s.node(), f.none() ? "nothing to accept"
          : "acknowledged", f.describe())));
      return report(true, "Accepted " + (key.isEmpty() ? "every unexpected difference" : "key " + key) + " at "
          + Text.hour(h) + " on the shards where it differs, each bound to its differences there; the next "
          + "reconciliation shows it as acknowledged, until they change.", lines, ExitCodes.OK);
    }
  }

  @Command(name = "deploy-live", mixinStandardHelpOptions = true,
      description = {"Deploy the spec's corrected materialized view (tables.live_view) on every shard, TO that shard's "
          + "v2, from one boundary B in the future: the latest any shard's newest event and safety margin allow. "
          + "Without --confirm, print B and each shard's statement and change nothing. All or nothing: when a shard "
          + "fails, the shards this step deployed are abandoned and their views dropped.",
          dev.cutover.engine.api.Safety.DEPLOY_LIVE})
  static final class DeployLiveStep extends SpecStep {
    @Option(names = "--confirm", description = "Create the views and pin B on every shard; without it, only show them.")
    boolean confirm;

    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      Map<ShardRef, dev.cutover.engine.api.LiveDeployment> before = repair.liveDeployment();
      boolean all = before.values().stream().allMatch(dev.cutover.engine.api.LiveDeployment::exists);
      Map<ShardRef, dev.cutover.engine.api.LiveDeployment> d = confirm && !all ? repair.deployLive() : before;
      dev.cutover.engine.api.HourPartition b = d.values().iterator().next().boundary();
      List<ShardLine> lines = new ArrayList<>();
      d.forEach((s, one) -> lines.add(new ShardLine(s.shard(), s.node(), !one.exists() ? "planned"
          : before.get(s).exists() ? "exists" : "created", "newest event " + Text.time(one.newestEvent())
          + one.repairId().map(id -> ", repair " + id).orElse(""))));
      String view = spec.database().name() + "." + spec.liveView().map(v -> v.name()).orElse("?");
      String sentence = !confirm && !all ? "Would create " + view + " TO " + spec.targetTable() + " on every shard from "
          + "B = " + Text.hour(b) + ". Nothing was changed; add --confirm to deploy."
          : "Every shard's " + view + " writes its own " + spec.targetTable() + " from B = " + Text.hour(b) + ", "
          + "pinned on every shard. Next: ./cutover backfill --spec " + specFile.shown() + " writes the hours "
          + "before B once B has closed.";
      err().println(d.values().iterator().next().statement());
      d.values().iterator().next().warning().ifPresent(w -> err().println("warning: " + w));
      err().flush();
      return report(true, sentence, lines, ExitCodes.OK);
    }
  }

  @Command(name = "declare-live", mixinStandardHelpOptions = true,
      description = {"Record on every shard that the corrected live writer, a job outside the database, has been "
          + "deployed from the shards' one boundary B: each shard's repair then waits for the writer's first hour. "
          + "Refused, nothing written, while any shard's repair has no B or another.", Safety.DECLARE_LIVE})
  static final class DeclareLiveStep extends SpecStep {
    @Option(names = "--writer", paramLabel = "TEXT", required = true,
        description = "What was deployed, on one line of at most 200 characters, such as the job's name and version.")
    String writer;

    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      List<ShardLine> lines = new ArrayList<>();
      Map<ShardRef, dev.cutover.engine.api.LiveWriterNote> notes = repair.declareLiveWriter(writer);
      notes.forEach((s, n) -> lines.add(new ShardLine(s.shard(), s.node(), "declared", "repair " + n.repairId()
          + ", by " + n.actor() + "@" + n.host() + " at " + Text.time(n.at()))));
      var first = notes.values().iterator().next();
      return report(true, first.writer() + " writes " + spec.targetTable() + " from B = " + Text.hour(first.boundary())
          + " on every shard, as declared; its hours are read from each shard's data: ./cutover status --spec "
          + specFile.shown() + " says where it starts.", lines, ExitCodes.OK);
    }
  }

  @Command(name = "abandon", mixinStandardHelpOptions = true,
      description = {"Give the repair up on every shard that has one open, with a reason, so that the next backfill "
          + "starts one new repair everywhere (a new B). v2 stays; a corrected view the repair deployed is dropped. "
          + "Refused, nothing abandoned, while consumers read v2 on any node or a backfill or swap holds a shard."})
  static final class AbandonStep extends SpecStep {
    @Option(names = "--confirm", paramLabel = "TABLE", required = true, description = "The target table's name, "
        + "typed to confirm.")
    String confirm;

    @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why the repair is given up; "
        + "it goes to every shard's audit trail.")
    String reason;

    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      List<ShardLine> lines = new ArrayList<>();
      repair.abandon(confirm, reason).forEach((s, r) -> lines.add(new ShardLine(s.shard(), s.node(), r.isPresent()
          ? "abandoned" : "nothing open", r.map(x -> "repair " + x.id() + ", B = " + x.boundary().map(Text::hour)
          .orElse("not pinned")).orElse(""))));
      return report(true, "The repair is abandoned on every shard that had one open; the next backfill starts a new "
          + "repair on every shard, with a boundary of its own.", lines, ExitCodes.OK);
    }
  }

  abstract static class SwapStep extends SpecStep {
    @Option(names = "--confirm", paramLabel = "VIEW", description = "The consumer view's name, typed to confirm.")
    String confirm;

    @Option(names = "--check", description = "Only show every node's gate, judged from the data now; change nothing "
        + "(exit 6 while any is closed).")
    boolean checkOnly;

    abstract Map<ShardRef, SwapResult> swap(ShardedRepair repair, String confirmation, ShardedRepair.SwapListener l);

    abstract Map<ShardRef, Gate> gates(ShardedRepair repair);

    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      if (checkOnly) {
        Map<ShardRef, Gate> gates = gates(repair);
        List<ShardLine> lines = new ArrayList<>();
        gates.forEach((s, g) -> lines.add(new ShardLine(s.shard(), s.node(), g.open() ? "open" : "closed",
            "consumers read " + g.current() + (g.open() ? "" : "; " + String.join("; ", g.unmet().stream()
                .map(c -> c.name() + ": " + c.detail()).toList())))));
        boolean open = gates.values().stream().allMatch(Gate::open);
        return report(open, "The " + command.name() + " gate is " + (open ? "open on every node." : "closed on "
            + gates.values().stream().filter(g -> !g.open()).count() + " of " + gates.size() + " nodes."), lines,
            ExitCodes.BLOCKED);
      }
      Map<ShardRef, SwapResult> done = swap(repair, confirm, (s, r) -> {
        err().println(s.node() + ": " + r.before() + " -> " + r.after() + "; " + r.verification());
        err().flush();
      });
      List<ShardLine> lines = new ArrayList<>();
      done.forEach((s, r) -> lines.add(new ShardLine(s.shard(), s.node(), r.after().toString(),
          r.verification())));
      boolean verified = done.values().stream().allMatch(SwapResult::verified);
      return report(verified, "Consumers read " + (command.name().equals("cutover") ? spec.consumerTarget()
          : spec.consumerLive()) + " through " + spec.consumerView() + " on every node.", lines, ExitCodes.QUERY);
    }
  }

  @Command(name = "cutover", mixinStandardHelpOptions = true,
      description = "Switch consumers to v2 on every node, all or nothing: refused unless every node's gate is open; "
          + "when a node fails, the nodes already switched are switched back.")
  static final class CutoverStep extends SwapStep {
    @Override
    Map<ShardRef, SwapResult> swap(ShardedRepair repair, String confirmation, ShardedRepair.SwapListener l) {
      return repair.cutover(confirmation, l);
    }

    @Override
    Map<ShardRef, Gate> gates(ShardedRepair repair) {
      return repair.gates();
    }
  }

  @Command(name = "rollback", mixinStandardHelpOptions = true,
      description = "Switch consumers back to v1 on every node, all or nothing, as the cutover does forward.")
  static final class RollbackStep extends SwapStep {
    @Option(names = "--reason", paramLabel = "TEXT", description = "Why consumers go back to v1: one line, kept in "
        + "every node's audit trail with the rollback.")
    String reason;

    @Override
    Map<ShardRef, SwapResult> swap(ShardedRepair repair, String confirmation, ShardedRepair.SwapListener l) {
      return repair.rollback(confirmation, Optional.ofNullable(reason), l);
    }

    @Override
    Map<ShardRef, Gate> gates(ShardedRepair repair) {
      return repair.rollbackGates();
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Every shard's repair: its phase and boundary, its latest run, and what its consumers read.")
  static final class StatusStep extends SpecStep {
    @Override
    int step(TableSpec spec, ShardedRepair repair) {
      Map<ShardRef, ShardLine> lines = lines(repair);
      Optional<String> disagree = disagreement(lines.values());
      return report(disagree.isEmpty(), disagree.orElse("One boundary and one version read on all " + lines.size()
          + " shards."), new ArrayList<>(lines.values()), ExitCodes.BLOCKED);
    }

    /** What the shards' lines disagree on (their boundaries, what their consumers read); empty when they agree. */
    static Optional<String> disagreement(java.util.Collection<ShardLine> lines) {
      long boundaries = lines.stream().map(l -> l.detail().replaceAll(",.*", "")).distinct().count();
      long readings = lines.stream().map(l -> l.detail().replaceAll(".*consumers read ", "")).distinct().count();
      return boundaries == 1 && readings == 1 ? Optional.empty() : Optional.of("The shards disagree ("
          + (boundaries > 1 ? "boundaries" : "") + (boundaries > 1 && readings > 1 ? " and " : "")
          + (readings > 1 ? "what consumers read" : "") + "); see each shard above.");
    }

    /** Each shard's line: its repair's phase, B, latest run, declared writer and the version its consumers read. */
    static Map<ShardRef, ShardLine> lines(ShardedRepair repair) {
      Map<ShardRef, ShardLine> lines = new java.util.LinkedHashMap<>();
      repair.status().forEach((s, st) -> lines.put(s, new ShardLine(s.shard(), s.node(), st.repair().map(x -> x.phase()
          .name().toLowerCase(java.util.Locale.ROOT)).orElse("no repair"), "B = " + st.repair().flatMap(Repair::boundary)
          .map(Text::hour).orElse("not pinned") + ", latest run " + st.latestRun().map(x -> x.id() + " "
          + x.shownState(java.time.Instant.now())).orElse("none") + st.declaredWriter().map(d -> ", live writer "
          + "declared (" + d.writer() + ")").orElse("") + ", consumers read " + st.reads())));
      return lines;
    }
  }
}
