package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.UnfinishedSwap;
import dev.cutover.engine.api.TableSpec;
import java.io.PrintWriter;
import java.util.Optional;
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
    if (command.parent() != null && command.parent().name().equals(ClusterCommand.NAME)) {
      err().println("note: ./cutover cluster " + command.name() + " is an alias kept for this release of ./cutover "
          + command.name() + ", which runs on every shard when its spec names a cluster.");
      err().flush();
    }
    checkOptions();
    try (Session session = connection.open(err())) {
      return run(session, new Engine(session));
    }
  }

  /** Refuses options that cannot go together before connecting: no server is started or written for them. */
  void checkOptions() {}

  abstract int run(Session session, Engine engine) throws Exception;

  /** A step on the repair of a target over its nodes, given what finishing a swap left unfinished did, if anything. */
  interface OnRepair {
    int run(TargetRepair repair, Optional<String> finished) throws Exception;
  }

  /**
   * {@code step} on the repair of {@code spec}'s target over its nodes: one server's, or every node's of its
   * cluster, opened for the step. A swap of every node that its process left unfinished is finished first, and said
   * on stderr, so that no step judges or changes a repair whose nodes read two versions.
   */
  int onRepair(Engine engine, TableSpec spec, OnRepair step) throws Exception {
    try (TargetRepair repair = engine.repair(spec)) {
      Optional<String> finished = repair.finishUnfinishedSwap().map(UnfinishedSwap::sentence);
      finished.ifPresent(f -> {
        err().println("note: " + f);
        err().flush();
      });
      return step.run(repair, finished);
    }
  }

  /** {@code on STEPS' WHERE} for a sharded table's sentences ({@code on every shard of cluster c (3 shards)}); none on one server. */
  static String on(TargetRepair repair, String where) {
    return repair.nodes().isEmpty() ? "" : " on " + where;
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
