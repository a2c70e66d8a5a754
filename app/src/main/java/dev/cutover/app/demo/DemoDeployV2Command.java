package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.app.output.Text;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Safety;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cutover demo deploy-v2}: the live job also writes pnl_v2 from the repair's boundary on. The
 * boundary is the one the repair's first backfill pinned; another is refused, as two writers on one
 * hour would be.
 */
@Command(name = "deploy-v2", mixinStandardHelpOptions = true,
    description = {"Redeploy the live job with the corrected logic from the boundary B that the repair's first "
        + "backfill pinned: it writes pnl_v2 for every hour from B on, first catching up the hours from B that have "
        + "closed. It never writes v2 before B.", Safety.LIVE_WRITER})
public final class DemoDeployV2Command implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Option(names = "--from", paramLabel = "HOUR",
      description = "The boundary B, a whole UTC hour such as 2026-11-29T10:00 (default: the repair's pinned B); "
          + "another than the pinned one is refused.")
  String from;
  @Mixin JsonOption output;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Optional<Instant> asked = Optional.ofNullable(from).map(f -> Hours.parse("from", f)); // bad input before anything
    try (Session session = connection.open(spec.commandLine().getErr());
        DemoNodes nodes = DemoNodes.of(session, demo.world())) {
      // On a cluster, every shard's live job is redeployed from the same B: every shard's repair pinned it.
      V2Deployment deployment = null;
      Instant boundary = null;
      boolean running = false;
      for (DemoNodes.Node node : nodes.all()) {
        try (LiveJob job = LiveJob.open(node.statements(), node.world(), LiveOptions.defaults())) {
          Instant b = boundary(new Engine(node.session()), asked);
          if (boundary != null && !boundary.equals(b)) {
            throw new dev.cutover.engine.api.StepRefusedException("demo deploy-v2", "The shards' repairs pinned "
                + "different boundaries (" + Hours.readable(boundary) + " and " + Hours.readable(b) + " on shard "
                + node.world().shard().map(s -> s.number()).orElse(1) + "); abandon the repair on every shard and "
                + "backfill again.");
          }
          boundary = b;
          V2Deployment one = job.deployV2(b);
          DemoWriterDeclaration.declare(new Engine(node.session()), node.world(), b);
          deployment = deployment == null ? one : deployment;
          running |= LiveJob.isHeld(job.state(), Instant.now());
        }
      }
      output.print(out, new DemoDocuments.DeployDocument("demo deploy-v2", deployment.boundary(),
          deployment.newlyDeployed(), deployment.watermark(), deployment.hoursToCatchUp(), running), List.of(
              "v2 " + (deployment.newlyDeployed() ? "deployed" : "was already deployed") + " from "
                  + Hours.readable(boundary) + ": the live job writes pnl_v2 for every hour from there on, catching up "
                  + Text.hours(deployment.hoursToCatchUp()) + " that have closed first.",
              running ? "The running live job picks this up at its next step."
                  : "No live job is running: start one with './cutover demo live'."));
      return ExitCodes.OK;
    }
  }

  /** The pinned boundary, or {@code --from} when it agrees with it (or nothing is pinned yet). */
  private Instant boundary(Engine engine, Optional<Instant> asked) {
    Optional<Repair> repair = engine.repairs().current(DemoSpec.load(demo.database)).filter(r -> !r.phase().ended());
    Optional<HourPartition> pinned = repair.flatMap(Repair::boundary);
    if (pinned.isPresent() && asked.isPresent() && !pinned.get().start().equals(asked.get())) {
      throw new InvalidInputException("from", "The repair of " + repair.get().target() + " pinned the boundary B = "
          + pinned.get() + " when its first backfill started; the corrected live writer must start exactly there, "
          + "or two writers would own the hours between " + Hours.readable(asked.get()) + " and B. Leave --from out, "
          + "or give " + Hours.iso(pinned.get().start()) + ".");
    }
    return pinned.map(HourPartition::start).or(() -> asked).orElseThrow(() -> new InvalidInputException("from",
        "No backfill has pinned a boundary yet, so there is no B to deploy from: run the backfill first (it prints "
            + "the boundary), or give --from HOUR."));
  }
}
