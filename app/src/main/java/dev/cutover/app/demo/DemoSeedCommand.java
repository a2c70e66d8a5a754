package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.app.output.ProgressOptions;
import dev.cutover.app.output.ProgressOutput;
import dev.cutover.engine.Session;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cutover demo seed}: builds the demo world once; does nothing if it is already there. */
@Command(name = "seed", mixinStandardHelpOptions = true,
    description = "Build the demo world (once per database): history of trades, marks and FX rates up to the current "
        + "hour, pnl_v1 computed from it, and one incident. If the world exists, say so and write nothing.")
public final class DemoSeedCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Mixin SeedArguments arguments;
  @Mixin JsonOption output;
  @Mixin ProgressOptions progressOptions;
  @Option(names = "--reset", description = "Drop an existing world first and build it again.")
  boolean reset;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return seed(spec, connection, demo, arguments, output, progressOptions, reset, "demo seed");
  }

  /** Seeds (or, with {@code reset}, rebuilds) the world and prints what it holds; shared with demo reset. */
  static int seed(CommandSpec spec, ConnectionOptions connection, DemoOptions demo, SeedArguments arguments,
      JsonOption output, ProgressOptions progressOptions, boolean reset, String command) {
    SeedOptions options = arguments.options();
    DemoWorld world = demo.world();
    try (Session session = connection.open(spec.commandLine().getErr());
        DemoNodes nodes = DemoNodes.of(session, world)) {
      SeedResult result = null;
      // One incident for the world: every shard after the first doubles the hour the first chose.
      Optional<java.time.Instant> incident = Optional.empty();
      for (DemoNodes.Node node : nodes.all()) {
        Seeder seeder = new Seeder(node.statements(), node.world(), incident);
        String what = command + node.world().shard().map(s -> " (shard " + s.number() + " of " + s.count() + ")")
            .orElse("");
        try (ProgressOutput progress = progressOptions.open(what, spec.commandLine().getErr())) {
          SeedProgress seedProgress = progressTo(progress);
          SeedResult one = reset ? seeder.reset(options, seedProgress) : seeder.seed(options, seedProgress);
          incident = incident.or(() -> one.state().incidentHour());
          result = result == null ? one : new SeedResult(result.created() || one.created(), result.state(),
              result.trades() + one.trades(), result.v1Rows() + one.v1Rows(), Math.max(result.v1Hours(),
              one.v1Hours()), result.elapsed().plus(one.elapsed()));
        }
      }
      nodes.distribute();
      if (reset && !nodes.sharded()) {
        abandonRepairOfTheOldWorld(session, world, options.viewFed()).ifPresent(spec.commandLine().getErr()::println);
      }
      List<String> lines = new java.util.ArrayList<>(DemoText.seedResult(nodes.all().getFirst().world(), result));
      if (nodes.sharded()) {
        lines.add("The world is sharded by book over the " + nodes.all().size() + " shards of the local cluster: each "
            + "holds its books' trades and pnl_v1, every one the marks and FX rates; consumers read pnl through "
            + "pnl_v1_all. Repair it with the same commands on every shard at once, './cutover --shards "
            + nodes.all().size() + " backfill --spec demo' and on (docs/CLUSTER.md).");
      }
      output.print(spec.commandLine().getOut(), DemoDocuments.SeedDocument.of(command, world, result), lines);
      return ExitCodes.OK;
    }
  }

  /**
   * The repair of the world that a reset dropped can no longer mean anything: its boundary, ledger and
   * verdict speak of tables that are gone. It is abandoned, so that the new world's repair starts anew.
   */
  private static Optional<String> abandonRepairOfTheOldWorld(Session session, DemoWorld world, boolean viewFed) {
    dev.cutover.engine.Engine engine = new dev.cutover.engine.Engine(session);
    dev.cutover.engine.api.TableSpec demoSpec = dev.cutover.app.spec.DemoSpec.load(world.database().name(), viewFed);
    var open = engine.repairs().current(demoSpec).filter(r -> !r.phase().ended());
    if (open.isEmpty()) {
      return Optional.empty();
    }
    try {
      engine.repairs().abandon(demoSpec, demoSpec.targetTable().name(), "the demo world was reset: its tables were "
          + "dropped and built again");
      return Optional.of("Abandoned repair " + open.get().id() + " of the world that was reset.");
    } catch (dev.cutover.engine.api.CutoverException e) {
      return Optional.of("Repair " + open.get().id() + " of the world that was reset is still open: "
          + e.getMessage());
    }
  }

  /** Each phase of the seed as a step: hours of trades, hours of pnl_v1, and the short ones. */
  static SeedProgress progressTo(ProgressOutput progress) {
    return new SeedProgress() {
      private String phase = "";

      @Override
      public void report(String p, long done, long total) {
        if (!p.equals(phase)) {
          boolean hours = p.equals("trades") || p.equals("pnl_v1");
          progress.step("Seeding " + p, total, hours ? "hours" : "steps");
          phase = p;
        }
        progress.progress(done, Double.NaN, Optional.empty(), "");
      }
    };
  }
}
