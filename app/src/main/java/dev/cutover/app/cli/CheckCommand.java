package dev.cutover.app.cli;

import dev.cutover.engine.api.ServerInfo;
import dev.cutover.engine.Session;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Connects, checks the server and prints one line: {@code ok: ClickHouse … at …}. */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = {"Connect (to the embedded engine unless a server is given by --jdbc-url, --profile or "
        + "$CUTOVER_JDBC_URL), check the server, print one line.",
        "With --verbose, first says on stderr where each connection setting came from: an option, an environment "
            + "variable, the profile, or the built-in default (never a password)."})
public final class CheckCommand implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin JsonOption output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try (Session session = connection.open(spec.commandLine().getErr())) {
      ServerInfo info = session.server();
      var document = new SwapDocuments.CheckDocument("check", true, info.version().toString(), info.address(),
          session.embedded().isPresent(), session.embedded().map(e -> e.dataDirectory().toString()).orElse(null),
          info.database(), info.user(), info.tls(), session.describe());
      output.print(spec.commandLine().getOut(), document, List.of("ok: " + session.describe()));
      return ExitCodes.OK;
    }
  }
}
