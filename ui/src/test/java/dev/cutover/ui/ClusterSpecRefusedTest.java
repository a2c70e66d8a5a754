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
 * A spec that names a cluster the server does not know is refused when it loads, with the sentence that
 * names the clusters it does know, and no screen works on it: neither the screens of one server, which
 * would show shard 1 as if it were all of the table, nor the Shards screen, which has no cluster to reach.
 */
@ExtendWith(ApplicationExtension.class)
class ClusterSpecRefusedTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(2, () -> console);

  @Test
  void aSpecWhoseClusterTheServerDoesNotKnowIsRefusedNamingTheClustersItKnows(FxRobot robot) throws Exception {
    Path sharded = Files.writeString(disk.specFile().resolveSibling("sharded-" + ProcessHandle.current().pid()
        + ".yaml"), Files.readString(disk.specFile()) + "cluster:\n  name: prod_shards\n  live: visits_v1_all\n"
        + "  target: visits_v2_all\n  sources:\n    clicks: clicks_all\n");
    try {
      ConsoleWindow window = ConsoleWindow.shown(robot, sharded, new ScriptedDialogs(), Optional.empty());
      console = window.console();
      window.fx().waitFor(60, () -> console.connection().specLoading().error() != null
          && !console.connection().specLoading().error().isEmpty(), () -> "no refusal yet");
      String error = console.connection().specLoading().error();
      assertTrue(error.contains("The server knows no cluster 'prod_shards'") && error.contains("remote_servers"), error);
      assertEquals(null, console.workspace().spec(), "no screen works on the sharded table");
      assertEquals(null, console.workspace().openRepairProperty().get());
      window.fx().shot("40-cluster-spec-refused");
    } finally {
      Files.deleteIfExists(sharded);
    }
  }
}
