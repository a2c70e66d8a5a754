package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "preflight", mixinStandardHelpOptions = true,
    description = {"Run every check before a backfill (on a sharded spec, every shard's, read as one); exit 6 when one "
        + "fails. Writes nothing.", Safety.PREFLIGHT})
public final class PreflightCommand extends EngineCommand {

  @Mixin SpecOptions options;

  @Mixin AcknowledgeOptions acknowledge;

  @Override
  void checkOptions() {
    acknowledge.list();
  }

  @Override
  int run(Session session, Engine engine) throws Exception {
    List<AcknowledgedDependent> acknowledged = acknowledge.list();
    TableSpec spec = options.loadAny(session, engine);
    return onRepair(engine, spec, (repair, finished) -> {
      // On a cluster, every shard's plan over one range and one B, and every shard's preflight read as one: a check
      // passes only when it passes on every shard, and names the shards where it does not.
      PlanSteps steps = repair.plans();
      PreflightReport report = steps.preflight(steps.plan(options.from(), options.to(), options.boundary(),
          options.affected(), options::overrides), acknowledged, Progress.NONE).report();
      print(RepairDocuments.PreflightDocument.of("preflight", report), Render.preflightLines(report));
      return report.passed() ? ExitCodes.OK : ExitCodes.BLOCKED;
    });
  }
}
