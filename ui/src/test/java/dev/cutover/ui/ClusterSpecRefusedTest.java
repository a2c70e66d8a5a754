package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The console shows one server: a spec that names a cluster is refused when it loads, with the sentence that
 * names the command line's cluster commands, and no screen shows the sharded table as if shard 1 were all of it.
 */
@ExtendWith(ApplicationExtension.class)
class ClusterSpecRefusedTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(2, () -> console);

  @Test
  void aSpecThatNamesAClusterIsRefusedNamingTheClusterCommands(FxRobot robot) throws Exception {
    Path sharded = Files.writeString(disk.specFile().resolveSibling("sharded-" + ProcessHandle.current().pid()
        + ".yaml"), Files.readString(disk.specFile()) + "cluster:\n  name: prod_shards\n  live: visits_v1_all\n"
        + "  target: visits_v2_all\n  sources:\n    clicks: clicks_all\n");
    try {
      ConsoleWindow window = ConsoleWindow.shown(robot, sharded, new ScriptedDialogs(), Optional.empty());
      console = window.console();
      window.fx().waitFor(60, () -> console.connection().specLoading().error() != null
          && !console.connection().specLoading().error().isEmpty(), () -> "no refusal yet");
      String error = console.connection().specLoading().error();
      assertTrue(error.contains("names the cluster prod_shards") && error.contains("./cutover cluster "
          + "plan|backfill|reconcile|cutover|rollback|status --spec " + sharded), error);
      assertEquals(null, console.workspace().spec(), "no screen works on the sharded table");
      window.fx().shot("40-cluster-spec-refused");
    } finally {
      Files.deleteIfExists(sharded);
    }
  }
}
