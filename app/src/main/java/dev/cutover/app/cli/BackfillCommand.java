package dev.cutover.app.cli;

import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.BackfillRun;
import dev.cutover.engine.connect.Session;
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

  @Option(names = "--resume", paramLabel = "RUN", description = "Continue this run (interrupted, failed or cancelled).")
  String resume;

  @Option(names = "--acknowledge", paramLabel = "DB.TABLE", description = "A dependent reviewed and accepted; repeatable.")
  List<String> acknowledged = new ArrayList<>();

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = options.load(engine);
    Plan plan;
    if (resume != null) {
      if (engine.run(resume).isEmpty()) {
        throw new InvalidInputException("resume", "There is no run " + resume + "; list runs with ./cutover status "
            + "--spec " + options.spec + ".");
      }
      if (options.from != null || options.to != null || options.boundary != null) {
        throw new InvalidInputException("resume", "A resumed run keeps its range and boundary; remove --from, --to "
            + "and --boundary.");
      }
      plan = engine.planResume(spec, resume, options::overrides);
    } else {
      plan = engine.plan(spec, options.from(), options.to(), options.boundary(), options.affected(),
          options.settings(engine, spec));
    }
    Preflighted checked = engine.preflight(plan, acknowledged);
    PreflightReport report = checked.report();
    if (checked.cleared().isEmpty()) {
      if (json) {
        out().println(Json.write(Render.ordered("started", false, "preflight", Render.preflight(report))));
      } else {
        Render.preflightLines(report).forEach(err()::println);
        err().println("error: preflight failed; nothing was written. Fix what it lists and run backfill again.");
      }
      return ExitCodes.BLOCKED;
    }
    ProgressPrinter printer = new ProgressPrinter(err(), !json && System.console() != null);
    BackfillEvent.Listener listener = printer::on;
    ClearedPlan cleared = checked.cleared().get();
    plan = cleared.plan();
    BackfillRun run = engine.backfill(cleared, listener);
    if (!json) {
      err().println("Run " + run.id() + (resume != null ? " resumed" : "") + ": " + plan.hours().size() + " hours of "
          + spec.database() + "." + spec.targetTable() + " in " + plan.range() + ", boundary " + plan.boundary()
          + " UTC" + (plan.pinned() ? " (pinned by the repair)" : " (pinned by this run)") + ", "
          + throttle(plan.settings()) + ". Ctrl-C cancels.");
      err().flush();
    }
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
    printer.finish();
    if (json) {
      out().println(Json.write(Render.ordered("started", true, "run", Render.run(end))));
    } else {
      out().println(end.state().name().toLowerCase() + ": run " + end.id() + ", " + end.message());
      if (end.state() == RunState.SUCCEEDED) {
        out().println("Next: the corrected live writer must write every hour from " + plan.boundary() + " on, and "
            + "none before it" + (SpecOptions.DEMO.equals(options.spec.toString()) ? " (./cutover demo deploy-v2 --from "
                + plan.boundary().start().toString().substring(0, 16) + ")" : "") + "; see ./cutover status --spec "
            + options.spec + ".");
      }
    }
    out().flush();
    return switch (end.state()) {
      case SUCCEEDED -> ExitCodes.OK;
      case CANCELLED -> ExitCodes.INTERRUPTED;
      default -> ExitCodes.QUERY;
    };
  }

  static String throttle(BackfillSettings s) {
    return s.concurrency() + " batch(es) of " + s.batchHours() + " h at once, " + (s.rowsPerSecond() > 0
        ? "at most " + s.rowsPerSecond() + " rows/s" : "no rows/s limit") + (s.maxThreads() > 0 ? ", max_threads "
            + s.maxThreads() : "");
  }

  /** A progress bar on a terminal; one line per tenth of the run otherwise. */
  static final class ProgressPrinter {
    private final java.io.PrintWriter err;
    private final boolean terminal;
    private long lastDecile = -1;
    private String lastWaiting = "";
    private volatile boolean drew;

    ProgressPrinter(java.io.PrintWriter err, boolean terminal) {
      this.err = err;
      this.terminal = terminal;
    }

    synchronized void on(BackfillEvent event) {
      switch (event) {
        case BackfillEvent.Progress p -> progress(p);
        case BackfillEvent.Retrying r -> line("retrying hours from " + r.hours().getFirst() + " in "
            + r.backoff().toSeconds() + " s (attempt " + r.attempt() + "): " + r.error());
        case BackfillEvent.HourFailed f -> line("failed: hour " + f.hour() + ": " + f.error());
        case BackfillEvent.StateChanged s when s.state() != RunState.RUNNING && s.state() != RunState.SUCCEEDED -> line(s.state().name().toLowerCase() + ": " + s.message());
        default -> {}
      }
    }

    private void progress(BackfillEvent.Progress p) {
      double fraction = p.hoursTotal() == 0 ? 1 : (double) p.hoursDone() / p.hoursTotal();
      String text = String.format("%3d%% %d/%d hours, %,.0f rows/s, %.1f hours/s, ETA %s%s", (int) (fraction * 100),
          p.hoursDone(), p.hoursTotal(), p.rowsPerSecond(), p.hoursPerSecond(),
          p.eta().map(Render::duration).orElse("?"), p.hoursFailed() > 0 ? ", " + p.hoursFailed() + " failed" : "");
      if (!p.waiting().isEmpty() && !p.waiting().equals(lastWaiting)) {
        line(p.waiting());
      }
      lastWaiting = p.waiting();
      if (terminal) {
        int width = 30;
        int filled = (int) (fraction * width);
        err.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + text + "   ");
        err.flush();
        drew = true;
      } else if ((long) (fraction * 10) != lastDecile) {
        lastDecile = (long) (fraction * 10);
        err.println(text);
        err.flush();
      }
    }

    private void line(String text) {
      if (drew) {
        err.println();
        drew = false;
      }
      err.println(text);
      err.flush();
    }

    synchronized void finish() {
      if (drew) {
        err.println();
        err.flush();
      }
    }
  }
}
