package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
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
    return onRepair(engine, spec, (repair, finished) -> {
      // On a cluster, every shard's plan as one: the same hours and B, the sources' rows summed, the longest shard's
      // duration, and each shard's share of the throttle.
      PlanSteps steps = repair.plans();
      Plan plan = steps.plan(options.from(), options.to(), options.boundary(), options.affected(),
          options::overrides);
      List<String> lines = new ArrayList<>();
      if (!repair.nodes().isEmpty()) {
        lines.add("On " + steps.where() + ", below one boundary B for every shard; rows are every shard's, summed, "
            + "and each shard runs its share of the throttle.");
      }
      lines.addAll(Render.planLines(plan));
      print(RepairDocuments.PlanDocument.of(plan), lines);
      return ExitCodes.OK;
    });
  }
}
