package dev.cutover.ui;

import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh hourly world for a console test: a database of its own in the test engine and its spec in a
 * file the console opens; after each test the console's session closes first, then the world's
 * connections and the file.
 */
final class WorldOnDisk implements BeforeEachCallback, AfterEachCallback {

  private final int days;
  private final Supplier<CutoverConsole> console;
  private HourlyWorld world;
  private Path specFile;

  WorldOnDisk(int days, Supplier<CutoverConsole> console) {
    this.days = days;
    this.console = console;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(context.getRequiredTestClass()), days);
    specFile = Files.createTempFile("visits-", ".yaml");
    Files.writeString(specFile, world.specYaml());
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    CutoverConsole open = console.get();
    if (open != null) {
      open.sessions().closeSession();
    }
    world.db.close();
    Files.deleteIfExists(specFile);
  }

  HourlyWorld world() {
    return world;
  }

  Path specFile() {
    return specFile;
  }
}
