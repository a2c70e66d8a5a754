package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "plan", mixinStandardHelpOptions = true,
    description = {"Show what a backfill would do: hours, boundary, overlap, estimates and the exact statements. Writes "
        + "nothing.", Safety.PLAN})
public final class PlanCommand extends EngineCommand {

  @Mixin SpecOptions options;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = options.loadAny(session, engine);
    if (spec.cluster().isPresent()) {
      ClusterCommand.PlanStep onEveryShard = new ClusterCommand.PlanStep();
      onEveryShard.options = options;
      return onEveryShard.hostedBy(this, session, spec);
    }
    Plan plan = engine.plans().plan(spec, options.from(), options.to(), options.boundary(), options.affected(),
        options.settings(engine, spec));
    print(RepairDocuments.PlanDocument.of(plan), Render.planLines(plan));
    return ExitCodes.OK;
  }
}
