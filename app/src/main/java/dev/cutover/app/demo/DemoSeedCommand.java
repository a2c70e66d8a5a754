package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.connect.Session;
import java.io.PrintWriter;
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
  @Option(names = "--reset", description = "Drop an existing world first and build it again.")
  boolean reset;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    SeedOptions options = arguments.options();
    DemoWorld world = demo.world();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (Session session = connection.open(err)) {
      Seeder seeder = new Seeder(session.database(), world);
      SeedProgress progress = progressTo(err);
      SeedResult result = reset ? seeder.reset(options, progress) : seeder.seed(options, progress);
      DemoText.seedResult(out, world, result);
      return ExitCodes.OK;
    }
  }

  /** One line per phase step of ten percent. */
  static SeedProgress progressTo(PrintWriter err) {
    return new SeedProgress() {
      private String phase = "";
      private long lastTenth = -1;

      @Override
      public void report(String p, long done, long total) {
        long tenth = total <= 0 ? 10 : done * 10 / total;
        if (!p.equals(phase) || tenth != lastTenth) {
          err.printf("%s: %d/%d%n", p, done, total);
          err.flush();
        }
        phase = p;
        lastTenth = tenth;
      }
    };
  }
}
