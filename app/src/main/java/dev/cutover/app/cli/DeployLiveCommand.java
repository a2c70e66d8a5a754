package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.engine.BackfillSteps;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "deploy-live", mixinStandardHelpOptions = true,
    description = {"Deploy the corrected live writer as the spec's materialized view (tables.live_view), TO the "
        + "target, from a boundary B in the future, and start the repair that pins B. Without --confirm, print the "
        + "view's statement and B and change nothing. Deploying a view the repair already has changes nothing.",
        Safety.DEPLOY_LIVE})
public final class DeployLiveCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--confirm", description = "Create the view and pin B; without it, only show them.")
  boolean confirm;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    return onRepair(engine, spec, (repair, finished) -> deploy(spec, repair.backfills(), on(repair,
        repair.backfills().where())));
  }

  /**
   * Shows or deploys the corrected view ({@code on}: where, on a sharded table: every shard's view from one B, all
   * or none, a view that exists only once it does on every shard).
   */
  private int deploy(TableSpec spec, BackfillSteps steps, String on) {
    LiveDeployment before = steps.liveDeployment();
    LiveDeployment d = confirm && !before.exists() ? steps.deployLive(Optional.empty()) : before;
    boolean created = confirm && !before.exists();
    String state = created ? "created" : d.exists() ? "exists" : "planned";
    String qualified = String.join(", ", d.views().stream().map(v -> spec.database().name() + "." + v.name()).toList());
    String target = spec.database().name() + "." + spec.targetTable().name() + on;
    List<String> lines = new ArrayList<>();
    lines.add(switch (state) {
      case "created" -> "Created " + qualified + " TO " + target + ": it writes every hour from B = "
          + Text.hour(d.boundary()) + " on; B is pinned by repair " + d.repairId().orElse("?") + ".";
      case "exists" -> qualified + " already writes " + target + " from B = " + Text.hour(d.boundary())
          + " (repair " + d.repairId().orElse("?") + "); nothing was changed.";
      default -> "Would create " + qualified + " TO " + target + " from B = " + Text.hour(d.boundary())
          + ", the next whole hour after the newest event (" + Text.time(d.newestEvent()) + ") plus the safety "
          + "margin of " + Text.hours(spec.safetyMargin().toHours()) + ". Nothing was changed; add --confirm to deploy.";
    });
    lines.add("");
    lines.add(d.statement());
    d.warning().ifPresent(w -> {
      err().println("warning: " + w);
      err().flush();
    });
    if (!state.equals("planned")) {
      lines.add("");
      lines.add("Next: ./cutover backfill --spec " + specFile.shown() + " writes the hours before B; it waits until "
          + "B has closed (the live edge at " + Text.hour(d.boundary().plusHours(spec.safetyMargin().toHours()))
          + ").");
    }
    print(new DeployLiveDocument("deploy-live", state, qualified, target, d.boundary().start(), d.newestEvent(),
        d.statement(), d.repairId().orElse(null), d.warning().orElse(null)), lines);
    return ExitCodes.OK;
  }

  /** {@code deploy-live --json}: what was deployed, or would be, and what to know before the view runs. */
  record DeployLiveDocument(String command, String state, String view, String target, Instant boundary,
      Instant newestEvent, String statement, String repair, String warning) {}
}
