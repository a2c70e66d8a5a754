package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.engine.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cutover demo status}: volumes, the live clock and edges, the boundary, the incident hour. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show the demo world: volumes, the live job's clock and watermark, the v1 and v2 live edges read "
        + "from the data, where v2 is deployed from, and the incident hour.")
public final class DemoStatusCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Mixin JsonOption output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try (Session session = connection.open(spec.commandLine().getErr())) {
      DemoStatus status = DemoStatus.read(session.statements(), demo.world());
      output.print(spec.commandLine().getOut(), DemoDocuments.StatusDocument.of(status), DemoText.status(status));
      return ExitCodes.OK;
    }
  }
}
