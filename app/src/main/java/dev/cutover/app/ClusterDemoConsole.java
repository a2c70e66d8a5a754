package dev.cutover.app;

import dev.cutover.app.cli.SpecOptions;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.ui.DemoControls;
import java.nio.file.Path;

/**
 * The demo world sharded over the embedded local cluster, as the console sees it: the console runs no
 * live job here (each shard's runs from the command line, {@code demo live}), and the default spec is the
 * sharded world's own, of the kind it was seeded (its v1 written by the job or fed by a view).
 */
final class ClusterDemoConsole implements DemoControls {

  private final Path root;
  private final int shards;

  ClusterDemoConsole(Path root, int shards) {
    this.root = root;
    this.shards = shards;
  }

  @Override
  public String describe() {
    return "Demo world sharded by book over the " + shards + " shards of the local cluster; its live job runs on "
        + "every shard with ./cutover --shards " + shards + " demo live.";
  }

  @Override
  public LiveJobState liveJob() {
    return LiveJobState.STOPPED; // this console runs no job on the cluster
  }

  @Override
  public void startLiveJob() {
    throw onTheCommandLine();
  }

  @Override
  public void stopLiveJob() {
    throw onTheCommandLine();
  }

  @Override
  public void deployV2(HourPartition from) {
    throw onTheCommandLine();
  }

  private InvalidInputException onTheCommandLine() {
    return new InvalidInputException("demo", "On the local cluster the demo's live job and its corrected writer run "
        + "from the command line: ./cutover --shards " + shards + " demo live, and demo deploy-v2.");
  }

  /** The sharded world's spec of the kind it was seeded, when {@code named} is the demo's default; else {@code named}. */
  @Override
  public Path spec(Path named) {
    Path jobFed = SpecOptions.demoClusterSpec(false);
    if (!named.toAbsolutePath().normalize().equals(jobFed.toAbsolutePath().normalize())) {
      return named;
    }
    try (Session session = Session.cluster(root, shards, EngineProgress.NONE)) {
      return DemoSpec.viewFed(session.statements(), DemoSpec.DEFAULT_DATABASE) ? SpecOptions.demoClusterSpec(true)
          : named;
    }
  }
}
