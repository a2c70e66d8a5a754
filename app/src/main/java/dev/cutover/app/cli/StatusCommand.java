package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.app.output.TextTable;
import dev.cutover.app.output.TextTable.Align;
import dev.cutover.engine.BackfillSteps;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.OnNode;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.repair.NextStepWords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "status", mixinStandardHelpOptions = true,
    description = {"Where the repair stands: its phase, the pinned boundary B, where the corrected live writer starts, "
        + "the window the current verdict covers, and the exact next step; then the live writers' edges and lag, and "
        + "the backfill runs of the target with the ledger of the newest (or --run).",
        "A run whose process is gone shows as interrupted. On a spec that names a cluster, the repair over every shard "
        + "as one (where its least advanced shard stands; each backfill one run over its shards), then each shard's "
        + "line."})
public final class StatusCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--run", paramLabel = "ID", description = "Show this run (default: the newest).")
  String runId;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    // A swap of every node that its process left unfinished is finished first, and said.
    return onRepair(engine, spec, (repair, finished) -> {
      // The side effects acknowledged on any node; those of the repair shown are listed.
      List<SideEffectAcknowledgement> acknowledged = repair.history(0).sideEffects().stream().map(OnNode::value)
          .toList();
      // Each node's own line besides the repair as one; none on one server, whose node is the repair.
      List<ShardLine> shards = lines(repair);
      // One read of the whole repair: the phase, the runs, what consumers read and the gate, at one moment (over
      // every shard, where its least advanced shard stands).
      int shown = show(spec, repair.snapshot(Optional.empty()), repair.backfills(), acknowledged,
          shards.isEmpty() ? null : shards, finished.orElse(null));
      // Shards that disagree on B or on what their consumers read: exit as blocked.
      Optional<String> disagree = shards.isEmpty() ? Optional.empty() : disagreement(shards);
      disagree.ifPresent(d -> {
        err().println(d);
        err().flush();
      });
      return disagree.isPresent() ? ExitCodes.BLOCKED : shown;
    });
  }

  /**
   * Prints one snapshot of the repair, on one server or over every shard: the same lines and document for both, a
   * sharded table's with each shard's line too ({@code shards}) and what finishing a swap left unfinished did.
   */
  private int show(TableSpec spec, RepairSnapshot snapshot, BackfillSteps backfills,
      List<SideEffectAcknowledgement> acknowledged, List<ShardLine> shards, String unfinishedSwap) {
    String specArgument = SpecOptions.path(specFile.path).toString();
    RepairStatus status = snapshot.status();
    List<RunRecord> runs = snapshot.runs();
    RunRecord shown = runId == null ? runs.stream().findFirst().orElse(null)
        : runs.stream().filter(r -> r.id().equals(runId)).findFirst().orElseThrow(() -> new InvalidInputException("run",
            "There is no run " + runId + " of " + spec.database() + "." + spec.targetTable() + "; run status without "
            + "--run to list them."));
    Instant now = Instant.now();
    RepairDocuments.Ledger ledger = shown == null ? null
        : RepairDocuments.Ledger.of(shown.id(), shown.range().hours(), backfills.ledger(shown.id()).values());

    var sideEffects = RepairDocuments.SideEffect.of(status, acknowledged);
    List<String> lines = new ArrayList<>(repairLines(status, specArgument, spec.consumerView().name(), sideEffects));
    lines.add(liveLine(status.live()));
    lines.add(readsLine(snapshot, spec));
    snapshot.gate().ifPresent(g -> lines.add(gateLine(g)));
    var armed = snapshot.armed();
    armed.ifPresent(a -> lines.add("Cutover " + a.describe() + (!a.expired(Instant.now()) ? ": consumers switch to v2 the "
        + "first time the gate opens, while the command that armed it (or a console on this repair) runs; "
        + "./cutover cutover --disarm --spec " + specArgument + " disarms it." : ": its window has ended; the next "
        + "turn removes it without switching.")));
    if (runs.isEmpty()) {
      lines.add("No backfill run has written " + spec.database() + "." + spec.targetTable() + " yet.");
    } else {
      lines.add("Runs:");
      TextTable t = new TextTable("  ", Align.LEFT, Align.LEFT, Align.LEFT, Align.LEFT, Align.LEFT, Align.LEFT);
      t.row("run", "state", "range", "boundary", "by", "message");
      runs.forEach(r -> t.row(r.id(), r.shownState(now), Text.window(r.range()), Text.hour(r.boundary()),
          r.osUser() + "@" + r.host(), r.message()));
      lines.addAll(t.lines());
    }
    if (shards != null) {
      lines.add("Shards:");
      shards.forEach(l -> lines.add("  " + l.node() + ": " + l.state() + "; " + l.detail()));
    }
    if (ledger != null) {
      lines.add("Ledger of " + ledger.run() + ": " + Text.count(ledger.written()) + " written, "
          + Text.count(ledger.emptied()) + " emptied (no corrected rows), " + Text.count(ledger.failed().size())
          + " failed, " + Text.count(ledger.pending()) + " pending of " + Text.hours(ledger.hours()) + "; "
          + Text.count(ledger.rows()) + " rows");
      if (!ledger.failed().isEmpty()) {
        lines.add("  failed hours: " + String.join(", ", ledger.failed().stream().limit(10)
            .map(h -> Text.time(h)).toList()) + (ledger.failed().size() > 10 ? " …" : ""));
      }
    }
    var document = new RepairDocuments.StatusDocument("status", snapshot.at(),
        RepairDocuments.Repair.of(status, specArgument, spec.consumerView().name(), acknowledged),
        RepairDocuments.Live.of(status.live()), snapshot.reads().name().toLowerCase(Locale.ROOT),
        snapshot.gate().map(RepairDocuments.StatusGate::of).orElse(null), runs.stream().map(r -> RepairDocuments.Run.of(r, r.shownState(now),
            backfills.settings(r))).toList(), ledger, armed.map(SwapDocuments.Arm::of).orElse(null),
        shards, unfinishedSwap);
    print(document, lines);
    return ExitCodes.OK;
  }

  /** {@code Consumers read v1 (trading.pnl_v1) through trading.pnl.} */
  private static String readsLine(RepairSnapshot snapshot, TableSpec spec) {
    return switch (snapshot.reads()) {
      case V1 -> "Consumers read v1 (" + spec.database() + "." + spec.liveTable() + ") through " + spec.consumerView() + ".";
      case V2 -> "Consumers read v2 (" + spec.database() + "." + spec.targetTable() + ") through " + spec.consumerView() + ".";
      case UNKNOWN -> "Consumers of " + spec.consumerView() + " read neither version, or both: check the view.";
    };
  }

  /** {@code Cutover gate, judged 10:42 UTC: closed (overlap: …).} */
  private static String gateLine(RepairSnapshot.Judged g) {
    String head = (g.gate().step().equals("cutover") ? "Cutover" : "Rollback") + " gate, judged "
        + Text.time(g.at()) + ": ";
    return head + (g.gate().open() ? "open." : "closed: " + String.join("; ", g.gate().unmet().stream()
        .map(c -> c.name() + " (" + c.detail() + ")").toList()) + ".");
  }

  private static String liveLine(LiveStatus live) {
    return "Live edges: v1 " + live.liveEdge().map(Text::hour).orElse("none") + ", v2 "
        + live.targetEdge().map(Text::hour).orElse("none") + "; newest event "
        + live.newestEvent().map(Text::time).orElse("none") + "; live writer lag " + Text.duration(live.lag());
  }

  static List<String> repairLines(RepairStatus s, String spec, String consumerView,
      List<RepairDocuments.SideEffect> sideEffects) {
    List<String> out = new ArrayList<>();
    TextTable t = new TextTable("  ", Align.LEFT, Align.LEFT);
    if (s.repair().isEmpty()) {
      out.add("Repair of " + s.target() + ": none yet; " + (s.next().kind() == RepairStatus.Kind.DEPLOY_VIEW
          ? "deploying the corrected view" : "the first backfill") + " starts one and pins its boundary.");
    } else {
      var r = s.repair().get();
      out.add("Repair " + r.id() + " of " + s.target() + ": " + r.phase().words() + " (since " + Text.time(r.at())
          + ", by " + r.by().user() + "@" + r.by().host() + ")" + r.operation().map(o -> "; held by the "
              + o.describe()).orElse(""));
      t.row("boundary B", r.boundary().map(b -> Text.hour(b) + ", pinned: the live writer owns every hour from it on")
          .orElse("not pinned yet"));
      r.correctedViews().ifPresent(v -> t.row("corrected view", s.target().substring(0, s.target().indexOf('.') + 1)
          + v + (s.correctedViewExists() ? ", deployed by this repair to write v2 from B"
              : ", deployed by this repair, no longer exists" + switch (r.phase()) {
                case ROLLED_BACK -> " (the rollback dropped it)";
                case ABANDONED -> " (abandoning the repair dropped it)";
                default -> "";
              } + ": nothing writes v2 live")));
      t.row("live writer", s.liveWriter().map(LiveWriter::describe).orElse("not observed yet"));
      s.declaredWriter().ifPresent(d -> t.row("declared", d.writer() + ", by " + d.actor() + "@" + d.host() + " at "
          + Text.time(d.at()) + " (declare-live; the line above is what the data say)"));
      sideEffects.forEach(a -> t.row("side effect", a.dependent() + " (reads " + a.reads() + ") acknowledged by "
          + a.acknowledgedBy() + " at " + Text.time(a.acknowledgedAt()) + " for run " + a.run() + ": " + a.reason()));
      t.row("verdict", s.verdict().map(v -> v.verdict().name().toLowerCase(Locale.ROOT) + ", reconciliation "
          + v.id() + " over " + Text.window(v.window()) + (v.counts() ? "" : v.underThisSpec()
              ? " (made before the repair's window moved: reconcile again)"
              : " (made under another spec: reconcile again)")).orElse("none over the whole repair yet"));
    }
    t.row("next", s.next().sentence());
    String command = NextStepWords.command(s.next(), spec, consumerView,
        s.target().substring(s.target().indexOf('.') + 1));
    if (!command.isEmpty()) {
      t.row("", command);
    }
    out.addAll(t.lines());
    return out;
  }

  /** One shard's line in the status document: its number, its node, its repair's phase, and the rest in words. */
  record ShardLine(int shard, String node, String state, String detail) {}

  /** What the shards' lines disagree on (their boundaries, what their consumers read); empty when they agree. */
  static Optional<String> disagreement(List<ShardLine> lines) {
    long boundaries = lines.stream().map(l -> l.detail().replaceAll(",.*", "")).distinct().count();
    long readings = lines.stream().map(l -> l.detail().replaceAll(".*consumers read ", "")).distinct().count();
    return boundaries == 1 && readings == 1 ? Optional.empty() : Optional.of("The shards disagree ("
        + (boundaries > 1 ? "boundaries" : "") + (boundaries > 1 && readings > 1 ? " and " : "")
        + (readings > 1 ? "what consumers read" : "") + "); see each shard above.");
  }

  /** Each shard's line: its repair's phase, B, latest run, declared writer and the version its consumers read. */
  static List<ShardLine> lines(TargetRepair repair) {
    List<ShardLine> lines = new ArrayList<>();
    repair.eachNode().forEach((s, st) -> lines.add(new ShardLine(s.shard(), s.node(), st.repair().map(x -> x.phase()
        .name().toLowerCase(Locale.ROOT)).orElse("no repair"), "B = " + st.repair().flatMap(Repair::boundary)
        .map(Text::hour).orElse("not pinned") + ", latest run " + st.latestRun().map(x -> x.id() + " "
        + x.shownState(Instant.now())).orElse("none") + st.declaredWriter().map(d -> ", live writer "
        + "declared (" + d.writer() + ")").orElse("") + ", consumers read " + st.reads())));
    return lines;
  }
}
