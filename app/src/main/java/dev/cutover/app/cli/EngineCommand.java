package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.connect.Session;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A command that connects, then works through the engine; prints for people or, with --json, for machines. */
abstract class EngineCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec command;

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  boolean json;

  @Override
  public final Integer call() throws Exception {
    try (Session session = connection.open(err())) {
      return run(session, new Engine(session.database()));
    }
  }

  abstract int run(Session session, Engine engine) throws Exception;

  PrintWriter out() {
    return command.commandLine().getOut();
  }

  PrintWriter err() {
    return command.commandLine().getErr();
  }

  void print(Object jsonValue, Iterable<String> lines) {
    if (json) {
      out().println(Json.write(jsonValue));
    } else {
      lines.forEach(out()::println);
    }
    out().flush();
  }
}
