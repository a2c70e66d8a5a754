package dev.cutover.app.demo;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.api.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
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

  private static final List<String> FILES = List.of(SpecLoader.BUNDLED, "pnl_v2.sql", "pnl_v1.sql");

  @Mixin DemoOptions demo;
  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder to write the files into.")
  Path out;
  @Option(names = "--force", description = "Overwrite files that exist.")
  boolean force;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    for (String file : FILES) {
      if (!force && Files.exists(out.resolve(file))) {
        throw new InvalidInputException("out", out.resolve(file) + " exists; pass --force to overwrite it, or "
            + "choose another folder.");
      }
    }
    Files.createDirectories(out);
    for (String file : FILES) {
      try (InputStream in = DemoExportSpecCommand.class.getResourceAsStream("/dev/cutover/app/demo/" + file)) {
        String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (file.equals(SpecLoader.BUNDLED)) {
          text = text.replaceFirst("(?m)^database: .*$", "database: " + demo.world().database().name());
        }
        Files.writeString(out.resolve(file), text);
      }
    }
    SpecLoader.load(out.resolve(SpecLoader.BUNDLED)); // what was written loads
    spec.commandLine().getOut().println("wrote " + String.join(", ", FILES) + " to " + out.toAbsolutePath());
    return ExitCodes.OK;
  }
}
