package dev.cutover.app.demo;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.JsonOption;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Specs;
import java.nio.file.Path;
import java.util.List;
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
  @Mixin JsonOption output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Path written = DemoSpec.export(out, demo.world().database().name(), force);
    Specs.read(written); // what was written loads
    Path folder = out.toAbsolutePath();
    output.print(spec.commandLine().getOut(), new DemoDocuments.ExportDocument("demo export-spec", folder.toString(),
        written.toAbsolutePath().toString(), DemoSpec.FILES), List.of("wrote " + String.join(", ", DemoSpec.FILES)
            + " to " + folder + "; pass it with --spec " + written.toAbsolutePath()));
    return ExitCodes.OK;
  }
}
