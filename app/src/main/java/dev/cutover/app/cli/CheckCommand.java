package dev.cutover.app.cli;

import dev.cutover.engine.connect.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** Connects, checks the server and prints one line: {@code ok: ClickHouse … at …}. */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Connect (to the embedded engine unless --jdbc-url is given), check the server, print one line.")
public final class CheckCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try (Session session = connection.open(spec.commandLine().getErr())) {
      spec.commandLine().getOut().println("ok: " + session.describe());
      return ExitCodes.OK;
    }
  }
}
