package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "cleanup", mixinStandardHelpOptions = true,
    description = "Drop staging and sample tables left by runs; run records, ledgers and reports stay.")
public final class CleanupCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Override
  int run(Session session, Engine engine) throws Exception {
    return onRepair(engine, specFile.loadAny(session, engine), (repair, finished) -> {
      List<String> dropped = repair.cutovers().cleanup();
      print(new SwapDocuments.CleanupDocument("cleanup", dropped), dropped.isEmpty() ? List.of("Nothing to clean up.")
          : dropped.stream().map(d -> "dropped " + d).toList());
      return ExitCodes.OK;
    });
  }
}
