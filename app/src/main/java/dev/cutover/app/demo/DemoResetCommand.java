package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.app.output.ProgressOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cutover demo reset}: drops the demo world and builds it again. */
@Command(name = "reset", mixinStandardHelpOptions = true,
    description = "Drop the demo world (every table in its database) and build it again. Refused while a live job "
        + "writes it, and for a database that is not a demo world.")
public final class DemoResetCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Mixin SeedArguments arguments;
  @Mixin JsonOption output;
  @Mixin ProgressOptions progressOptions;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return DemoSeedCommand.seed(spec, connection, demo, arguments, output, progressOptions, true, "demo reset");
  }
}
