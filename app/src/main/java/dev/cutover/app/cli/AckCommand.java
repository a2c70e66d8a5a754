package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "ack", mixinStandardHelpOptions = true,
    description = "Accept an unexpected difference (a whole hour, or one key) with a written reason; it goes to the audit "
        + "trail and belongs to the repair under way: a new repair starts without it. Reconcile again to see the verdict.")
public final class AckCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--hour", paramLabel = "HOUR", required = true, description = "The hour of the difference, UTC.")
  String hour;

  @Option(names = "--key", paramLabel = "VALUE", description = "The key's values in the spec's key order; repeat for each. Leave out for the whole hour.")
  List<String> key = new ArrayList<>();

  @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why the difference is acceptable.")
  String reason;

  @Override
  int run(Session session, Engine engine) {
    TableSpec spec = specFile.load(session, engine);
    HourPartition h = HourPartition.parse("hour (--hour)", hour);
    if (!key.isEmpty() && key.size() != spec.keys().size()) {
      throw new dev.cutover.engine.api.InvalidInputException("key", "--key was given " + key.size() + " time(s), but the "
          + "spec's key has " + spec.keys().size() + " columns " + spec.keys() + "; give one --key per column, in order.");
    }
    engine.reconciliations().acknowledge(spec, h, key, reason);
    print(new SwapDocuments.AckDocument("ack", h.start(), key.isEmpty(), key, reason.strip()),
        List.of("Acknowledged " + Text.hour(h) + (key.isEmpty() ? " (whole hour)" : " key " + key) + ". Run reconcile "
            + "again to see the verdict."));
    return ExitCodes.OK;
  }
}
