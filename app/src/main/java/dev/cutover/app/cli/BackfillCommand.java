package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOptions;
import dev.cutover.app.output.ProgressOutput;
import dev.cutover.app.output.Text;
import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.repair.NextStepWords;
import java.util.ArrayList;
import java.util.List;
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

  @Override
  int run(Session session, Engine engine) throws Exception {
    List<AcknowledgedDependent> acknowledged = acknowledge.list();
    TableSpec spec = options.loadAny(session, engine);
    if (spec.cluster().isPresent()) {
      return onRepair(engine, spec, (repair, finished) -> onEveryShard(spec, repair, acknowledged));
    }
    Plan plan;
    if (resume != null && resume.isEmpty()) {
      resume = engine.repairs().snapshot(spec, java.util.Optional.empty()).runs().stream().findFirst()
          .map(RunRecord::id).orElseThrow(() -> new InvalidInputException("resume",
              "There is no run of " + spec.targetTable() + " to resume; start one with ./cutover backfill --spec "
                  + specShown() + "."));
    }
    if (resume != null) {
      if (engine.backfills().run(resume).isEmpty()) {
        throw new InvalidInputException("resume", "There is no run " + resume + "; list runs with ./cutover status "
            + "--spec " + specShown() + ".");
      }
      if (options.from != null || options.to != null || options.boundary != null) {
        throw new InvalidInputException("resume", "A resumed run keeps its range and boundary; remove --from, --to "
            + "and --boundary.");
      }
      plan = engine.plans().planResume(spec, resume, options::overrides);
    } else {
      plan = engine.plans().plan(spec, options.from(), options.to(), options.boundary(), options.affected(),
          options.settings(engine, spec));
    }
    Preflighted checked = engine.plans().preflight(plan, acknowledged);
    PreflightReport report = checked.report();
    var preflight = RepairDocuments.PreflightDocument.of("preflight", report);
    if (checked.cleared().isEmpty()) {
      if (json()) {
        print(new RepairDocuments.BackfillDocument("backfill", false, preflight, null, null), List.of());
      } else {
        Render.preflightLines(report).forEach(err()::println);
        err().println("error: preflight failed; nothing was written. Fix what it lists and run backfill again.");
        err().flush();
      }
      return ExitCodes.BLOCKED;
    }
    ClearedPlan cleared = checked.cleared().get();
    plan = cleared.plan();
    RunRecord end;
    try (ProgressOutput progress = progressOptions.open("backfill", err())) {
      RunHandle run = engine.backfills().start(cleared, new BackfillProgress(progress));
      progress.message(ProgressOutput.Level.INFO, "Run " + run.id() + (resume != null ? " resumed" : "") + ": "
          + Text.hours(plan.hours().size()) + " of " + spec.database() + "." + spec.targetTable() + ", "
          + Text.window(plan.range()) + ", boundary " + Text.hour(plan.boundary()) + (plan.pinned()
              ? " (pinned by the repair)" : " (pinned by this run)") + ", " + throttle(plan.settings())
          + ". Ctrl-C cancels.");
      end = awaitCancellingOnInterrupt(run);
    }
    RepairDocuments.Next next = end.state() == RunState.SUCCEEDED ? next(engine, spec, plan) : null;
    // The hours written stay written: the run goes on from its ledger, once what stopped it is mended.
    return ended(preflight, end, engine.plans().runSettings(end, plan.settings()), next, "Resume it with:");
  }

  /**
   * The backfill of a sharded table: one run over every shard under one id, each shard's part under that id and
   * its shard's number, printed as one server's run is (its hours every shard's, merged). {@code --resume [RUN]}
   * continues the parts of that run (or the latest) that did not succeed, each from its own ledger.
   */
  private int onEveryShard(TableSpec spec, dev.cutover.engine.TargetRepair repair,
      List<AcknowledgedDependent> acknowledged) throws InterruptedException {
    dev.cutover.engine.PlanSteps plans = repair.plans();
    dev.cutover.engine.BackfillSteps backfills = repair.backfills();
    RepairDocuments.PreflightDocument preflight = null;
    RunRecord end;
    RunHandle run;
    try (ProgressOutput progress = progressOptions.open("backfill", err())) {
      if (resume != null) {
        if (options.from != null || options.to != null || options.boundary != null) {
          throw new InvalidInputException("resume", "A resumed run keeps its range and boundary; remove --from, --to "
              + "and --boundary.");
        }
        List<RunRecord> runs = backfills.runs();
        String id = resume.isEmpty() ? runs.stream().findFirst().map(RunRecord::id).orElseThrow(() ->
            new InvalidInputException("resume", "There is no run of " + spec.targetTable() + " on " + backfills.where()
                + " to resume; start one with ./cutover backfill --spec " + specShown() + ".")) : resume;
        if (runs.stream().noneMatch(r -> r.id().equals(id))) {
          throw new InvalidInputException("resume", "There is no run " + id + " on " + backfills.where() + "; list "
              + "runs with ./cutover status --spec " + specShown() + ".");
        }
        run = backfills.resume(id, options::overrides, acknowledged, dev.cutover.engine.api.Progress.NONE,
            new BackfillProgress(progress));
      } else {
        Plan plan = plans.plan(options.from(), options.to(), options.boundary(), options.affected(),
            options::overrides);
        Preflighted checked = plans.preflight(plan, acknowledged, dev.cutover.engine.api.Progress.NONE);
        preflight = RepairDocuments.PreflightDocument.of("preflight", checked.report());
        if (!checked.passed()) {
          if (json()) {
            print(new RepairDocuments.BackfillDocument("backfill", false, preflight, null, null), List.of());
          } else {
            Render.preflightLines(checked.report()).forEach(err()::println);
            err().println("error: preflight failed on " + backfills.where() + "; nothing was written on any shard. Fix "
                + "what it lists and run backfill again.");
            err().flush();
          }
          return ExitCodes.BLOCKED;
        }
        run = backfills.start(checked, new BackfillProgress(progress));
      }
      RunRecord started = run.record();
      progress.message(ProgressOutput.Level.INFO, "Run " + run.id() + (resume != null ? " resumed" : "") + " on "
          + backfills.where() + ", each shard's part under " + run.id() + "-s1, -s2…: " + spec.database() + "."
          + spec.targetTable() + ", " + Text.window(started.range()) + ", boundary " + Text.hour(started.boundary())
          + ", on each shard " + throttle(run.settings()) + ". Ctrl-C cancels every shard's part.");
      end = awaitCancellingOnInterrupt(run);
    }
    RepairDocuments.Next next = null;
    if (end.state() == RunState.SUCCEEDED) {
      RepairStatus status = repair.snapshot(java.util.Optional.empty()).status();
      next = new RepairDocuments.Next(status.next().sentence(), NextStepWords.command(status.next(), specShown(),
          spec.consumerView().name(), spec.targetTable().name()));
    }
    return ended(preflight, end, run.settings(), next, "Resume every shard's part that did not finish with:");
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
  private RepairDocuments.Next next(Engine engine, TableSpec spec, Plan plan) {
    RepairStatus status = engine.repairs().status(spec);
    if (status.next().kind() != RepairStatus.Kind.DEPLOY_LIVE_WRITER) {
      return new RepairDocuments.Next(status.next().sentence(), NextStepWords.command(status.next(), specShown(),
          spec.consumerView().name(), spec.targetTable().name()));
    }
    String sentence = "the corrected live writer must write every hour from " + Text.hour(plan.boundary())
        + " on, and none before it.";
    if (spec.name().equals("pnl") && spec.targetTable().name().equals("pnl_v2")) {
      String database = spec.database().name();
      return new RepairDocuments.Next(sentence + " Deploy the demo's with:", "./cutover demo deploy-v2 --from "
          + Text.option(plan.boundary()) + (database.equals(dev.cutover.app.demo.DemoWorld.DEFAULT_DATABASE) ? ""
              : " --demo-database " + database));
    }
    return new RepairDocuments.Next(sentence + " Deploy yours to start at " + Text.option(plan.boundary())
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
