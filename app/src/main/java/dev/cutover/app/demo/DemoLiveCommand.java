package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.app.output.JsonOutput;
import dev.cutover.app.output.Text;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.CutoverException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cutover demo live}: runs the live job in the foreground until Ctrl-C. */
@Command(name = "live", mixinStandardHelpOptions = true,
    description = {"Run the live job in the foreground until Ctrl-C: every step moves the simulated clock ten minutes, "
        + "inserts what arrived, and writes each closed hour to pnl_v1 (and to pnl_v2 once deployed). It resumes "
        + "where the last run stopped.", "With --json, one JSON document per line: started, each step, stopped."})
public final class DemoLiveCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Option(names = "--speed", paramLabel = "DURATION", defaultValue = "30s",
      description = "Real time one simulated hour takes: 30s (default), 500ms, 2m, or realtime.")
  String speed;
  @Option(names = "--steps", paramLabel = "N",
      description = "Stop after N steps of ten simulated minutes (default: run until Ctrl-C).")
  Integer steps;
  @Mixin JsonOption output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    Duration simulatedHour = LiveOptions.parseSpeed(speed);
    if (steps != null && steps < 1) {
      throw new dev.cutover.engine.api.InvalidInputException("steps", "--steps " + steps + " is not positive; give "
          + "the number of ten-minute steps to run, or leave it out to run until Ctrl-C.");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    AtomicInteger done = new AtomicInteger();
    CountDownLatch finished = new CountDownLatch(1);
    AtomicReference<RuntimeException> fatal = new AtomicReference<>();
    AtomicReference<LiveJob> started = new AtomicReference<>();
    java.util.function.Consumer<RuntimeException> onFailure = failure -> {
      err.println((failure instanceof CutoverException c && c.retryable() ? "warning (retrying): " : "error: ")
          + failure.getMessage());
      err.flush();
      if (!(failure instanceof CutoverException c && c.retryable())) {
        fatal.set(failure);
        finished.countDown();
      }
    };
    LiveOptions options = new LiveOptions(simulatedHour, step -> {
      if (output.on()) {
        out.println(JsonOutput.write(DemoDocuments.LiveEvent.step(started.get().id(), demo.world(), step)));
        out.flush();
      } else {
        DemoText.step(out, step);
      }
      if (steps != null && done.incrementAndGet() >= steps) {
        started.get().requestStop(); // exactly N steps: no further step starts
        finished.countDown();
      }
    }, onFailure);
    // On a cluster, every other shard runs its own part of the job in step; shard 1's steps are the ones shown.
    LiveOptions quiet = new LiveOptions(simulatedHour, step -> {}, onFailure);

    Session session = connection.open(err);
    DemoNodes nodes;
    LiveJob job;
    List<LiveJob> others = new java.util.concurrent.CopyOnWriteArrayList<>();
    try {
      nodes = DemoNodes.of(session, demo.world());
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
    try {
      job = LiveJob.open(session.statements(), nodes.all().getFirst().world(), options);
      started.set(job);
      for (DemoNodes.Node node : nodes.all().subList(1, nodes.all().size())) {
        others.add(LiveJob.open(node.statements(), node.world(), quiet));
      }
      DemoState state = job.state();
      if (output.on()) {
        out.println(JsonOutput.write(DemoDocuments.LiveEvent.started(job.id(), demo.world(), state, simulatedHour)));
      } else {
        out.printf("live job %s on %s: clock %s, every hour before %s is closed; one simulated hour every %s. "
            + "Ctrl-C stops it after the current step.%n", job.id(), demo.world(), Hours.readable(state.clock()),
            Hours.readable(state.watermark()), Text.duration(simulatedHour));
      }
      out.flush();
      job.start();
      others.forEach(LiveJob::start);
    } catch (RuntimeException e) {
      others.forEach(LiveJob::stop);
      nodes.close();
      session.close();
      throw e;
    }
    Thread hook = new Thread(() -> {
      job.stop();
      others.forEach(LiveJob::stop);
      printStopped(out, job, output.on(), demo.world());
      nodes.close();
      session.close();
      finished.countDown();
    }, "cutover-demo-live-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    while (!finished.await(200, TimeUnit.MILLISECONDS) && job.running()) {
      // the job reports each step itself
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      return ExitCodes.INTERRUPTED; // Ctrl-C: the hook stops the job and closes the session
    }
    try {
      job.stop();
      others.forEach(LiveJob::stop);
      if (fatal.get() instanceof CutoverException known) {
        return ExitCodes.of(known);
      }
      if (fatal.get() != null) {
        throw fatal.get();
      }
      printStopped(out, job, output.on(), demo.world());
      return ExitCodes.OK;
    } finally {
      nodes.close();
      session.close();
    }
  }

  private static void printStopped(PrintWriter out, LiveJob job, boolean json, DemoWorld world) {
    try {
      DemoState state = job.state();
      out.println(json ? JsonOutput.write(DemoDocuments.LiveEvent.stopped(job.id(), world, state))
          : "stopped; the next './cutover demo live' continues from " + Hours.readable(state.clock()) + ".");
      out.flush();
    } catch (RuntimeException e) {
      // the server went away first; the state in ClickHouse is what the next run reads anyway
    }
  }
}
