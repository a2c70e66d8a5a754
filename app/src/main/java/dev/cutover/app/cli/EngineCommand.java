package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.TableSpec;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that connects, then works through the engine; prints for people or, with --json, one
 * JSON document for machines (docs/JSON.md).
 */
abstract class EngineCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec command;

  @Mixin JsonOption output;

  @Override
  public final Integer call() throws Exception {
    checkOptions();
    try (Session session = connection.open(err())) {
      return run(session, new Engine(session));
    }
  }

  /** Refuses options that cannot go together before connecting: no server is started or written for them. */
  void checkOptions() {}

  abstract int run(Session session, Engine engine) throws Exception;

  /**
   * {@code step} on the switch's steps where {@code spec}'s table lies: one server's, or every node's of its
   * cluster, opened for the step (a swap of every node that its process left unfinished is finished first, and
   * said on stderr).
   */
  int onCutovers(Session session, Engine engine, TableSpec spec,
      java.util.function.Function<dev.cutover.engine.CutoverSteps, Integer> step) throws Exception {
    if (spec.cluster().isEmpty()) {
      return step.apply(engine.cutovers().of(spec));
    }
    return onShards(session, spec, (repair, finished) -> step.apply(repair.cutovers()));
  }

  /** A step on the repair of a sharded table, given what finishing a swap left unfinished did, if anything. */
  interface OnShards {
    int run(dev.cutover.engine.ShardedRepair repair, java.util.Optional<String> finished) throws Exception;
  }

  /**
   * {@code step} on the repair of {@code spec}'s sharded table, open on every node for the step: a swap of every
   * node that its process left unfinished is finished first, and said on stderr.
   */
  int onShards(Session session, TableSpec spec, OnShards step) throws Exception {
    try (dev.cutover.engine.ShardedRepair repair = dev.cutover.engine.ShardedRepair.open(session, spec)) {
      java.util.Optional<String> finished = repair.finishUnfinishedSwap()
          .map(dev.cutover.engine.api.UnfinishedSwap::sentence);
      finished.ifPresent(f -> {
        err().println("note: " + f);
        err().flush();
      });
      return step.run(repair, finished);
    }
  }

  PrintWriter out() {
    return command.commandLine().getOut();
  }

  PrintWriter err() {
    return command.commandLine().getErr();
  }

  boolean json() {
    return output.on();
  }

  /** The JSON document with --json, else the lines for people. */
  void print(Object document, Iterable<String> lines) {
    output.print(out(), document, lines);
  }
}
