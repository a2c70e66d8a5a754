package dev.cutover.app;

import dev.cutover.app.demo.DemoStatus;
import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.LiveJob;
import dev.cutover.app.demo.LiveOptions;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.connect.Session;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.EngineProgress;
import dev.cutover.ui.DemoControls;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The demo world as the console sees it: its live job runs in the background while the console is
 * open (when the world is seeded), and the backfill screen's button deploys the corrected writer.
 * It keeps a session of its own on the embedded server, which the console's session shares.
 */
final class DemoConsole implements DemoControls, AutoCloseable {

  private final Path dataDirectory;
  private final DemoWorld world = DemoWorld.in(DemoWorld.DEFAULT_DATABASE);
  private final AtomicReference<Session> session = new AtomicReference<>();
  private final AtomicReference<LiveJob> live = new AtomicReference<>();

  DemoConsole(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  /** Starts the live job in the background if the demo world is seeded; says nothing and does nothing otherwise. */
  void startLiveJob() {
    Thread.ofVirtual().name("demo-live-start").start(() -> {
      try {
        Session s = session();
        if (DemoStatus.read(s.database(), world).seeded()) {
          LiveJob job = LiveJob.open(s.database(), world, LiveOptions.defaults());
          job.start();
          live.set(job);
        }
      } catch (RuntimeException e) {
        // Another process may run the live job already; the console works without it.
        System.err.println("The demo's live job did not start: " + e.getMessage());
      }
    });
  }

  private Session session() {
    return session.updateAndGet(s -> s != null ? s
        : Session.embedded(dataDirectory, EngineLibrary.fromEnvironment(), EngineProgress.NONE));
  }

  @Override
  public String describe() {
    return "Demo world in database " + world.database() + ": its live job writes pnl_v1 one simulated hour every "
        + LiveOptions.DEFAULT_SIMULATED_HOUR.toSeconds() + " s while the console is open; deploying makes it write "
        + "pnl_v2 too, from the boundary on, catching up first.";
  }

  @Override
  public void deployV2(HourPartition from) {
    LiveJob job = live.get();
    if (job != null) {
      job.deployV2(from.start());
      return;
    }
    try (LiveJob once = LiveJob.open(session().database(), world, LiveOptions.defaults())) {
      once.deployV2(from.start());
    }
  }

  @Override
  public void close() {
    LiveJob job = live.getAndSet(null);
    if (job != null) {
      job.stop();
    }
    Session s = session.getAndSet(null);
    if (s != null) {
      s.close();
    }
  }
}
