package dev.cutover.app;

import dev.cutover.app.demo.DemoStatus;
import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.DemoWriterDeclaration;
import dev.cutover.app.demo.LiveJob;
import dev.cutover.app.demo.LiveOptions;
import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.ui.DemoControls;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The demo world as the console sees it: its live job runs only once the operator starts it from the
 * backfill screen (opening the console starts nothing: another process may run the job, and a console
 * that writes by itself surprises), and the backfill screen's button deploys the corrected writer. It
 * keeps a session of its own on the embedded server, which the console's session shares.
 */
final class DemoConsole implements DemoControls, AutoCloseable {

  private final Path dataDirectory;
  private final DemoWorld world = DemoWorld.in(DemoWorld.DEFAULT_DATABASE);
  private final AtomicReference<Session> session = new AtomicReference<>();
  private final AtomicReference<LiveJob> live = new AtomicReference<>();
  /** Whether the world's v1 is fed by a view, as {@link #spec} last read it: {@link #describe} reads no server. */
  private volatile boolean viewFed;

  DemoConsole(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  /**
   * The demo's session, opened again when the server it was opened on has ended: the console starts a
   * new server after losing one, and a pool of the old one would only ever be refused. A live job bound
   * to the old session goes with it; the operator starts it again from its button.
   */
  private synchronized Session session() {
    Session s = session.get();
    if (s != null && s.embedded().map(EmbeddedEngine::running).orElse(true)) {
      return s;
    }
    if (s != null) {
      LiveJob stale = live.getAndSet(null);
      if (stale != null) {
        stale.stop();
      }
      s.close();
    }
    Session fresh = Session.embedded(dataDirectory, EngineProgress.NONE);
    session.set(fresh);
    return fresh;
  }

  @Override
  public String describe() {
    if (viewFed) {
      return "Demo world in database " + world.database() + ": its live job, once started here, inserts trades and their "
          + "fees one simulated hour every " + LiveOptions.DEFAULT_SIMULATED_HOUR.toSeconds() + " s; the views "
          + "pnl_v1_mv and pnl_v1_fees_mv write pnl_v1 from them, and the corrected views pnl_v2 once deployed.";
    }
    return "Demo world in database " + world.database() + ": its live job, once started here, writes pnl_v1 one "
        + "simulated hour every " + LiveOptions.DEFAULT_SIMULATED_HOUR.toSeconds() + " s; deploying makes it write "
        + "pnl_v2 too, from the boundary on, catching up first.";
  }

  @Override
  public java.nio.file.Path spec(java.nio.file.Path named) {
    java.nio.file.Path defaultSpec = dev.cutover.app.cli.SpecOptions.demoSpec();
    if (!named.toAbsolutePath().normalize().equals(defaultSpec.toAbsolutePath().normalize())
        || !(viewFed = world.viewFed(session().statements()))) {
      return named;
    }
    return dev.cutover.app.cli.SpecOptions.demoSpec(true);
  }

  @Override
  public LiveJobState liveJob() {
    LiveJob job = live.get();
    if (job == null) {
      return LiveJobState.STOPPED;
    }
    RuntimeException failure = job.failure();
    return new LiveJobState(job.running(), failure == null ? "" : failure.getMessage());
  }

  @Override
  public synchronized void startLiveJob() {
    Session s = session();
    LiveJob job = live.get();
    if (job != null && job.running()) {
      return;
    }
    if (!DemoStatus.read(s.statements(), world).seeded()) {
      throw new StepRefusedException("demo live", "The demo world in database " + world.database() + " is not "
          + "seeded, so there is no live job to run: run ./cutover demo seed first.");
    }
    LiveJob started = job != null ? job : LiveJob.open(s.statements(), world, LiveOptions.defaults());
    // Refused with a sentence when another process runs the demo's live job.
    started.start();
    live.set(started);
  }

  @Override
  public synchronized void stopLiveJob() {
    LiveJob job = live.get();
    if (job != null) {
      job.stop();
    }
  }

  @Override
  public void deployV2(HourPartition from) {
    Session s = session();
    LiveJob job = live.get();
    if (job != null) {
      job.deployV2(from.start());
    } else {
      try (LiveJob once = LiveJob.open(s.statements(), world, LiveOptions.defaults())) {
        once.deployV2(from.start());
      }
    }
    DemoWriterDeclaration.declare(new Engine(s), world, from.start());
  }

  /**
   * Read on the session the demo already has, never opening one: the screen asks every few seconds, and a
   * read must not start a server or stop the demo's live job. Empty while there is no such session.
   */
  @Override
  public java.util.Optional<HourPartition> deployedFrom() {
    Session s = session.get();
    if (s == null || !s.embedded().map(EmbeddedEngine::running).orElse(true)) {
      return java.util.Optional.empty();
    }
    return DemoStatus.v2From(s.statements(), world).map(HourPartition::of);
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
