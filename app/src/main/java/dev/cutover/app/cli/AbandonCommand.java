package dev.cutover.app.cli;

import dev.cutover.app.output.Shapes;
import dev.cutover.app.output.Text;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "abandon", mixinStandardHelpOptions = true,
    description = {"Give up the target's repair, with a written reason: its pinned boundary and its ledger stop "
        + "counting, and the next backfill starts a new repair. v2 stays as it is. Refused while consumers read v2 "
        + "(roll back first) and while another process holds the repair.", Safety.ABANDON})
public final class AbandonCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--confirm", paramLabel = "TARGET", required = true,
      description = "The target table's name (tables.target in the spec), typed to confirm.")
  String confirm;

  @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why the repair is given up.")
  String reason;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    if (spec.cluster().isPresent()) {
      ClusterCommand.AbandonStep onEveryShard = new ClusterCommand.AbandonStep();
      onEveryShard.specFile = specFile;
      onEveryShard.confirm = confirm;
      onEveryShard.reason = reason;
      return onEveryShard.hostedBy(this, session, spec);
    }
    Repair r = engine.repairs().abandon(spec, confirm, reason);
    print(new SwapDocuments.AbandonDocument("abandon", r.id(), r.target(), Shapes.hour(r.boundary()), reason.strip()),
        List.of("Abandoned repair " + r.id() + r.boundary().map(b -> " (B = " + Text.hour(b) + ")").orElse("") + ". "
            + spec.targetTable() + " is unchanged; the next backfill starts a new repair and pins its own boundary."));
    return ExitCodes.OK;
  }
}
