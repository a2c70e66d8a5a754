package dev.cutover.ui.connection;

import dev.cutover.engine.Session;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * Asks the server of the open session whether it answers, about once a second, on a thread of its
 * own: a console that only learns of a lost server when a screen's query fails keeps showing a green
 * gate for a server that is gone. When the server stops answering, the link says so at once, with
 * the probe's reason; then the watch opens a new session to the same server with a growing pause
 * (1, 2, 4, then every 5 s) and hands it to the FX thread. For a server that is not embedded it
 * first waits until the address answers again; for the embedded one, opening a session starts a new
 * server when none runs.
 *
 * <p>The FX thread never waits here: {@link #linkProperty()} changes on the FX thread, and the
 * session handed over by {@code reopened} is already open.
 *
 * <pre>{@code
 * watch.watch(session, attempt -> startup.connector().open(EngineProgress.NONE), fresh -> install(fresh));
 * watch.linkProperty().subscribe(link -> statusBar.setText(link.words()));
 * }</pre>
 */
public final class ConnectionWatch {

  /** How often the server is asked while it answers. */
  public static final Duration PERIOD = Duration.ofSeconds(1);
  /** How long one probe may take: a server slower than this to answer /ping counts as lost. */
  static final Duration TIMEOUT = Duration.ofMillis(800);
  /** The embedded server's process is looked at more often: that costs nothing, and a stopped server shows at once. */
  static final Duration PROCESS_PERIOD = Duration.ofMillis(100);
  /** The longest pause between two reconnection attempts. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  /** How long a new session may wait for the FX thread to take it before it is closed again. */
  static final Duration HAND_OVER = Duration.ofSeconds(30);

  /** Opens a new session to the same server. Blocking; called off the FX thread; throws while it cannot. */
  @FunctionalInterface
  public interface Reopen {
    Session open(int attempt) throws Exception;
  }

  private final TaskExecutor executor;
  private final ObjectProperty<ServerLink> link = new SimpleObjectProperty<>(ServerLink.none());
  private volatile ProbeLoop loop;

  public ConnectionWatch(TaskExecutor executor) {
    this.executor = executor;
  }

  /** Watches a session that has just answered. On the FX thread. */
  public void watch(Session session, Reopen reopen, Consumer<Session> reopened) {
    watch(session, reopen, reopened, ServerLink.connected("", Instant.now()));
  }

  /**
   * Watches {@code session}, starting from what is known of it: a session whose server was lost
   * before (a manual connect failed meanwhile) stays lost until a probe finds it answering. On the FX
   * thread.
   */
  public void watch(Session session, Reopen reopen, Consumer<Session> reopened, ServerLink from) {
    ProbeLoop next = new ProbeLoop(this, session, reopen, reopened, from);
    synchronized (this) {
      pause();
      loop = next;
    }
    link.set(from);
    Thread.ofVirtual().name("cutover-connection-watch").start(next);
  }

  /**
   * Stops probing and keeps what was last found, so that screens greyed for a lost server stay
   * greyed while the operator connects by hand. From any thread: the console calls it as it closes.
   */
  public synchronized void pause() {
    ProbeLoop running = loop;
    if (running != null) {
      running.stopped = true;
      loop = null;
    }
  }

  /** Stops probing and forgets the server: the console connects to another one. On the FX thread. */
  public void forget() {
    pause();
    link.set(ServerLink.none());
  }

  public ReadOnlyObjectProperty<ServerLink> linkProperty() {
    return link;
  }

  public ServerLink link() {
    return link.get();
  }

  /** The pause before attempt {@code n}: 1, 2 and 4 s, then {@link #MAX_BACKOFF}. */
  static Duration backoff(int n) {
    long seconds = 1L << Math.min(n - 1, 10);
    return seconds >= MAX_BACKOFF.toSeconds() ? MAX_BACKOFF : Duration.ofSeconds(seconds);
  }

  /** Whether {@code probe} is the loop this watch runs now: a paused one publishes nothing. */
  boolean runs(ProbeLoop probe) {
    return loop == probe;
  }

  /** What a probe found, on the FX thread. */
  void show(ServerLink now) {
    link.set(now);
  }

  TaskExecutor executor() {
    return executor;
  }
}
