package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
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
