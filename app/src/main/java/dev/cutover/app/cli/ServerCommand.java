package dev.cutover.app.cli;

import dev.cutover.engine.connect.Session;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Runs the embedded engine in the foreground so that other Cutover processes (the console, the
 * command line) can share it, until interrupted.
 */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = "Run the embedded ClickHouse in the foreground for other Cutover processes to share; "
        + "stop it with Ctrl-C.")
public final class ServerCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (!connection.embedded()) {
      throw new dev.cutover.engine.api.InvalidInputException("jdbc-url",
          "cutover server runs the embedded engine; remove --jdbc-url.");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Session session = connection.open(spec.commandLine().getErr());
    var out = spec.commandLine().getOut();
    if (session.embedded().map(e -> !e.owner()).orElse(false)) {
      out.println("A Cutover server already runs on " + connection.dataDirectory() + ": " + session.describe());
      session.close();
      return ExitCodes.OK;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      session.close();
      stopped.countDown();
    }));
    out.println("serving: " + session.describe());
    out.println("Other Cutover commands on this data directory now use this server. Press Ctrl-C to stop it.");
    out.flush();
    stopped.await();
    return ExitCodes.OK;
  }
}
