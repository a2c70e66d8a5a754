package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOptions;
import dev.cutover.app.output.ProgressOutput;
import dev.cutover.app.output.Text;
import dev.cutover.engine.BackfillSteps;
import dev.cutover.engine.Engine;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.Session;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.repair.NextStepWords;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "backfill", mixinStandardHelpOptions = true,
    description = {"Recompute history into the versioned target, hour by hour, up to the boundary; preflight runs first.",
        "Ctrl-C cancels after the batches under way; --resume RUN continues a run from its ledger, with the throttle "
            + "it ran with unless an option here changes it.", Safety.BACKFILL})
public final class BackfillCommand extends EngineCommand {

  @Mixin SpecOptions options;
  @Mixin ProgressOptions progressOptions;

  @Option(names = "--resume", paramLabel = "RUN", arity = "0..1", fallbackValue = "",
      description = "Continue this run (interrupted, failed or cancelled); without RUN, the repair's latest run. On a "
          + "sharded table, the parts of that run (or the latest) that did not succeed, each from its own ledger.")
  String resume;

  @Mixin AcknowledgeOptions acknowledge;

  @Override
  void checkOptions() {
    acknowledge.list();
  }

  /**
   * The backfill of the spec's target over its nodes: on one server a run; on a sharded table one run over every
   * shard under one id, each shard's part under that id and its shard's number, printed as one server's run is (its
   * hours every shard's, merged). {@code --resume [RUN]} continues that run (or the latest) from its ledger, on a
   * cluster the parts that did not succeed, with the throttle it ran with unless an option here changes it.
   */
  @Override
  int run(Session session, Engine engine) throws Exception {
    List<AcknowledgedDependent> acknowledged = acknowledge.list();
    TableSpec spec = options.loadAny(session, engine);
    return onRepair(engine, spec, (repair, finished) -> backfill(spec, repair, acknowledged));
  }

  private int backfill(TableSpec spec, TargetRepair repair, List<AcknowledgedDependent> acknowledged)
      throws InterruptedException {
    PlanSteps plans = repair.plans();
    BackfillSteps backfills = repair.backfills();
    boolean nodes = !repair.nodes().isEmpty();
    String where = on(repair, backfills.where());
    RepairDocuments.PreflightDocument preflight = null;
    if (resume != null && (options.from != null || options.to != null || options.boundary != null)) {
      throw new InvalidInputException("resume", "A resumed run keeps its range and boundary; remove --from, --to "
          + "and --boundary.");
    }
    Plan plan = null;
    Preflighted checked = null;
    String id = null;
    if (resume != null) {
      List<RunRecord> runs = backfills.runs();
      id = resume.isEmpty() ? runs.stream().findFirst().map(RunRecord::id).orElseThrow(() ->
          new InvalidInputException("resume", "There is no run of " + spec.targetTable() + where + " to resume; "
              + "start one with ./cutover backfill --spec " + specShown() + ".")) : resume;
      String asked = id;
      if (runs.stream().noneMatch(r -> r.id().equals(asked))) {
        throw new InvalidInputException("resume", "There is no run " + id + where + "; list runs with ./cutover "
            + "status --spec " + specShown() + ".");
      }
    } else {
      plan = plans.plan(options.from(), options.to(), options.boundary(), options.affected(), options::overrides);
      checked = plans.preflight(plan, acknowledged, Progress.NONE);
      preflight = RepairDocuments.PreflightDocument.of("preflight", checked.report());
      if (!checked.passed()) {
        if (json()) {
          print(new RepairDocuments.BackfillDocument("backfill", false, preflight, null, null), List.of());
        } else {
          Render.preflightLines(checked.report()).forEach(err()::println);
          err().println("error: preflight failed" + where + "; nothing was written" + (nodes ? " on any shard" : "")
              + ". Fix what it lists and run backfill again.");
          err().flush();
        }
        return ExitCodes.BLOCKED;
      }
    }
    RunRecord end;
    RunHandle run;
    try (ProgressOutput progress = progressOptions.open("backfill", err())) {
      // A resumed run's preflight is made again inside the step, from its range and B; refused, nothing is written.
      run = resume != null ? backfills.resume(id, options::overrides, acknowledged, Progress.NONE,
          new BackfillProgress(progress)) : backfills.start(checked, new BackfillProgress(progress));
      RunRecord started = run.record();
      String hours = plan == null ? "" : Text.hours(plan.hours().size()) + " of ";
      String pinned = plan == null || plan.pinned() ? " (pinned by the repair)" : " (pinned by this run)";
      progress.message(ProgressOutput.Level.INFO, "Run " + run.id() + (resume != null ? " resumed" : "") + where
          + (nodes ? ", each shard's part under " + run.id() + "-s1, -s2…" : "") + ": " + hours + spec.database()
          + "." + spec.targetTable() + ", " + Text.window(started.range()) + ", boundary "
          + Text.hour(started.boundary()) + pinned + ", " + (nodes ? "on each shard " : "") + throttle(run.settings())
          + (nodes ? ". Ctrl-C cancels every shard's part." : ". Ctrl-C cancels."));
      end = awaitCancellingOnInterrupt(run);
    }
    RepairDocuments.Next next = end.state() == RunState.SUCCEEDED ? next(repair, spec, end.boundary()) : null;
    // The hours written stay written: the run goes on from its ledger, once what stopped it is mended.
    return ended(preflight, end, run.settings(), next, nodes ? "Resume every shard's part that did not finish with:"
        : "Resume it with:");
  }

  /**
   * Prints how a run ended, with the next step once it succeeded or how to resume it otherwise, and returns the
   * exit code its state means.
   */
  private int ended(RepairDocuments.PreflightDocument preflight, RunRecord end, BackfillSettings settings,
      RepairDocuments.Next next, String resumeWith) {
    List<String> lines = new ArrayList<>();
    lines.add(end.state().name().toLowerCase(java.util.Locale.ROOT) + ": run " + end.id() + ", " + end.message());
    if (next != null) {
      lines.add("Next: " + next.sentence());
      if (!next.command().isEmpty()) {
        lines.add("  " + next.command());
      }
    } else if (end.state() != RunState.SUCCEEDED) {
      lines.add(resumeWith);
      lines.add("  ./cutover backfill --spec " + specShown() + " --resume " + end.id());
    }
    print(new RepairDocuments.BackfillDocument("backfill", true, preflight, RepairDocuments.Run.of(end,
        end.shownState(java.time.Instant.now()), settings), next), lines);
    return switch (end.state()) {
      case SUCCEEDED -> ExitCodes.OK;
      case CANCELLED -> ExitCodes.INTERRUPTED;
      default -> ExitCodes.QUERY;
    };
  }

  /** Ctrl-C cancels the run after the batches under way, and waits for it to record that. */
  private static RunRecord awaitCancellingOnInterrupt(RunHandle run) throws InterruptedException {
    Thread cancelOnInterrupt = new Thread(() -> {
      if (!run.completion().isDone()) {
        run.cancel();
        try {
          run.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    Runtime.getRuntime().addShutdownHook(cancelOnInterrupt);
    RunRecord end = run.await();
    try {
      Runtime.getRuntime().removeShutdownHook(cancelOnInterrupt);
    } catch (IllegalStateException e) {
      // shutting down
    }
    return end;
  }

  /**
   * The repair's next step once the run has succeeded, as {@code status} words it. Where that is to
   * deploy the corrected live writer, the exact deployment with its B: on the demo world the command
   * that deploys its writer; elsewhere, the operator deploys theirs, and status and reconcile follow.
   */
  private RepairDocuments.Next next(TargetRepair repair, TableSpec spec, HourPartition boundary) {
    RepairStatus status = repair.snapshot(Optional.empty()).status();
    if (status.next().kind() != RepairStatus.Kind.DEPLOY_LIVE_WRITER || !repair.nodes().isEmpty()) {
      return new RepairDocuments.Next(status.next().sentence(), NextStepWords.command(status.next(), specShown(),
          spec.consumerView().name(), spec.targetTable().name()));
    }
    String sentence = "the corrected live writer must write every hour from " + Text.hour(boundary)
        + " on, and none before it.";
    if (spec.name().equals("pnl") && spec.targetTable().name().equals("pnl_v2")) {
      String database = spec.database().name();
      return new RepairDocuments.Next(sentence + " Deploy the demo's with:", "./cutover demo deploy-v2 --from "
          + Text.option(boundary) + (database.equals(dev.cutover.app.demo.DemoWorld.DEFAULT_DATABASE) ? ""
              : " --demo-database " + database));
    }
    return new RepairDocuments.Next(sentence + " Deploy yours to start at " + Text.option(boundary)
        + ", then declare it (the repair waits for its first hour) and see where it starts with:",
        "./cutover declare-live --spec " + specShown() + " --writer \"…\" && ./cutover status --spec " + specShown());
  }

  /** The spec as the operator named it, on the command line or in the environment. */
  private String specShown() {
    return SpecOptions.path(options.spec).toString();
  }

  static String throttle(BackfillSettings s) {
    return s.concurrency() + " batch(es) of " + s.batchHours() + " h at once, " + (s.rowsPerSecond() > 0
        ? "at most " + Text.count(s.rowsPerSecond()) + " rows/s" : "no rows/s limit") + (s.maxThreads() > 0
            ? ", max_threads " + s.maxThreads() : "") + (s.restPercent() > 0
            ? ", resting " + s.restPercent() + "% of each batch's time after it" : "");
  }
}
