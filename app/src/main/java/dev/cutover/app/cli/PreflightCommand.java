package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "preflight", mixinStandardHelpOptions = true,
    description = {"Run every check before a backfill; exit 6 when one fails. Writes nothing.", Safety.PREFLIGHT})
public final class PreflightCommand extends EngineCommand {

  @Mixin SpecOptions options;

  @Mixin AcknowledgeOptions acknowledge;

  @Override
  void checkOptions() {
    acknowledge.list();
  }

  @Override
  int run(Session session, Engine engine) {
    List<AcknowledgedDependent> acknowledged = acknowledge.list();
    TableSpec spec = options.load(session, engine);
    Plan plan = engine.plans().plan(spec, options.from(), options.to(), options.boundary(), options.affected(),
        options.settings(engine, spec));
    PreflightReport report = engine.plans().preflight(plan, acknowledged).report();
    print(RepairDocuments.PreflightDocument.of("preflight", report), Render.preflightLines(report));
    return report.passed() ? ExitCodes.OK : ExitCodes.BLOCKED;
  }
}
