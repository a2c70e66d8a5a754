package dev.cutover.app.spec;

import dev.cutover.engine.Specs;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's spec (pnl.yaml) and its transforms, bundled with the application and written out as
 * files for the engine and for operators to read, edit or pass to {@code --spec}.
 */
public final class DemoSpec {

  public static final String SPEC = "pnl.yaml";
  /** The database of the demo world when none is named. */
  public static final String DEFAULT_DATABASE = "trading";
  public static final List<String> FILES = List.of(SPEC, "pnl_v2.sql", "pnl_v1.sql");

  private DemoSpec() {}

  /** Writes the spec and transforms into {@code folder}, pointing the spec at {@code database}; returns the spec's path. */
  public static Path export(Path folder, String database, boolean overwrite) {
    try {
      for (String file : FILES) {
        if (!overwrite && Files.exists(folder.resolve(file))) {
          throw new InvalidInputException("out", folder.resolve(file) + " exists; pass --force to overwrite it, or "
              + "choose another folder.");
        }
      }
      Files.createDirectories(folder);
      for (String file : FILES) {
        try (InputStream in = DemoSpec.class.getResourceAsStream("/dev/cutover/app/demo/" + file)) {
          String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          if (file.equals(SPEC)) {
            text = text.replaceFirst("(?m)^database: .*$", "database: " + database);
          }
          Files.writeString(folder.resolve(file), text);
        }
      }
      return folder.resolve(SPEC);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The demo's spec for a world in {@code database}, loaded by the engine. */
  public static TableSpec load(String database) {
    try {
      Path folder = Files.createTempDirectory("cutover-demo-spec-");
      try {
        return Specs.read(export(folder, database, true));
      } finally {
        for (String file : FILES) {
          Files.deleteIfExists(folder.resolve(file));
        }
        Files.deleteIfExists(folder);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
