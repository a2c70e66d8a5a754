package dev.cutover.app.cli;

import dev.cutover.app.output.Shapes;
import dev.cutover.app.output.Text;
import dev.cutover.engine.Engine;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.NodeAnswers;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
import java.util.Optional;
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
    return onRepair(engine, spec, (repair, finished) -> {
      PlanSteps steps = repair.plans();
      // On a cluster, on every shard that has one open, or (refused) on none; each shard's repair has its own id.
      NodeAnswers<Optional<Repair>> done = steps.abandon(confirm, reason);
      String on = on(repair, steps.where());
      Optional<Repair> r = done.whole();
      List<String> ids = done.nodes().isEmpty() ? r.map(Repair::id).stream().toList() : done.nodes().entrySet()
          .stream().filter(e -> e.getValue().isPresent()).map(e -> e.getValue().get().id() + " (" + e.getKey() + ")")
          .toList();
      Repair first = r.orElseThrow(); // refused by the step when no repair was open
      print(new SwapDocuments.AbandonDocument("abandon", first.id(), first.target(), Shapes.hour(first.boundary()),
          reason.strip()), List.of("Abandoned repair " + String.join(", ", ids) + on + first.boundary().map(b -> " (B = "
              + Text.hour(b) + ")").orElse("") + ". " + spec.targetTable() + " is unchanged; the next backfill starts a "
              + "new repair and pins its own boundary."));
      return ExitCodes.OK;
    });
  }
}
