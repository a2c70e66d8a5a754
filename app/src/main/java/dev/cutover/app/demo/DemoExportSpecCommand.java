package dev.cutover.app.demo;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.spec.SpecLoader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cutover demo export-spec --out DIR}: writes the demo's spec and transforms as files. */
@Command(name = "export-spec", mixinStandardHelpOptions = true,
    description = "Write the demo's spec (pnl.yaml) and its transforms (pnl_v2.sql, and pnl_v1.sql for reference) "
        + "into a folder, to read, edit, or pass to --spec.")
public final class DemoExportSpecCommand implements Callable<Integer> {

  @Mixin DemoOptions demo;
  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder to write the files into.")
  Path out;
  @Option(names = "--force", description = "Overwrite files that exist.")
  boolean force;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Path written = DemoSpec.export(out, demo.world().database().name(), force);
    SpecLoader.load(written); // what was written loads
    spec.commandLine().getOut().println("wrote " + String.join(", ", DemoSpec.FILES) + " to " + out.toAbsolutePath());
    return ExitCodes.OK;
  }
}
