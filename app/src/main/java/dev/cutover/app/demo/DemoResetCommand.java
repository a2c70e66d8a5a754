package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.connect.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cutover demo reset}: drops the demo world and builds it again. */
@Command(name = "reset", mixinStandardHelpOptions = true,
    description = "Drop the demo world (every table in its database) and build it again. Refused while a live job writes it, "
        + "and for a database that is not a demo world.")
public final class DemoResetCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Mixin SeedArguments arguments;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    SeedOptions options = arguments.options();
    DemoWorld world = demo.world();
    try (Session session = connection.open(spec.commandLine().getErr())) {
      SeedResult result = new Seeder(session.database(), world).reset(options,
          DemoSeedCommand.progressTo(spec.commandLine().getErr()));
      DemoText.seedResult(spec.commandLine().getOut(), world, result);
      return ExitCodes.OK;
    }
  }
}
