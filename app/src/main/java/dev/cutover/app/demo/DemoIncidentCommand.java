package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.StepRefusedException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cutover demo incident}: the seeded incident's hour alone, as {@code ack --hour} takes it. */
@Command(name = "incident", mixinStandardHelpOptions = true,
    description = {"Print the hour of the seeded incident (pnl_v1 holds it twice after a retried append) and nothing "
        + "else, in the form ack --hour takes, so that a script can acknowledge it:",
        "  ./cutover ack --spec demo --hour \"$(./cutover demo incident)\" --reason \"…\""})
public final class DemoIncidentCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Mixin JsonOption output;
  @Spec CommandSpec spec;

  /** {@code demo incident --json}. */
  record IncidentDocument(String command, String world, java.time.Instant incidentHour) {}

  @Override
  public Integer call() {
    try (Session session = connection.open(spec.commandLine().getErr())) {
      var hour = DemoStatus.read(session.statements(), demo.world()).state().flatMap(DemoState::incidentHour)
          .orElseThrow(() ->
          new StepRefusedException("demo incident", "The demo world in " + demo.world() + " has no incident hour: it "
              + "is not seeded, or its history is shorter than two days; run ./cutover demo seed first."));
      output.print(spec.commandLine().getOut(), new IncidentDocument("demo incident", demo.world().toString(),
          hour), java.util.List.of(Hours.iso(hour)));
      return ExitCodes.OK;
    }
  }
}
