package dev.cutover.ui.connection;

import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ServerHealth;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
  private static final Duration HAND_OVER = Duration.ofSeconds(30);

  /** Opens a new session to the same server. Blocking; called off the FX thread; throws while it cannot. */
  @FunctionalInterface
  public interface Reopen {
    Session open(int attempt) throws Exception;
  }

  private final TaskExecutor executor;
  private final ObjectProperty<ServerLink> link = new SimpleObjectProperty<>(ServerLink.none());
  private volatile Loop loop;

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
    Loop next = new Loop(session, reopen, reopened, from);
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
    Loop running = loop;
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

  /** One watched session and the sessions that replace it, until {@link #pause()}. */
  private final class Loop implements Runnable {

    private final Reopen reopen;
    private final Consumer<Session> reopened;
    private final ServerLink from;
    private volatile boolean stopped;
    private Session session;

    Loop(Session session, Reopen reopen, Consumer<Session> reopened, ServerLink from) {
      this.session = session;
      this.reopen = reopen;
      this.reopened = reopened;
      this.from = from;
    }

    @Override
    public void run() {
      ServerLink known = from;
      while (!stopped) {
        ServerHealth health = session.health(TIMEOUT);
        if (stopped) {
          return;
        }
        if (health.answering()) {
          if (known.state() != ServerLink.State.CONNECTED) {
            known = ServerLink.connected(health.sentence(), health.at());
            publish(known);
          }
          if (!rest()) {
            return;
          }
          continue;
        }
        // A loss already known (a manual connect failed meanwhile) keeps the time it began.
        Instant since = known.lost() ? known.since() : health.at();
        boolean stoppedByOperator = health.stopAsked() && session.embedded().isPresent();
        known = stoppedByOperator ? ServerLink.stopped(health.sentence(), since) : ServerLink.lost(health.sentence(), since);
        publish(known);
        if (stoppedByOperator && !awaitAnotherServer(known)) {
          return;
        }
        Session fresh = reconnect(known);
        if (fresh == null) {
          return;
        }
        session = fresh;
        known = ServerLink.connected("", Instant.now());
      }
    }

    /**
     * Waits {@link #PERIOD}, or less when the embedded server begins to stop or its process ends
     * meanwhile (both cost a file's read, not a query); false once stopped.
     */
    private boolean rest() {
      Optional<EmbeddedEngine> embedded = session.embedded();
      long end = System.nanoTime() + PERIOD.toNanos();
      for (long left; (left = end - System.nanoTime()) > 0; ) {
        if (stopped) {
          return false;
        }
        if (embedded.isPresent() && (!embedded.get().running() || embedded.get().whyStopping().isPresent())) {
          return true;
        }
        if (!sleep(Duration.ofNanos(Math.min(left, PROCESS_PERIOD.toNanos())))) {
          return false;
        }
      }
      return !stopped;
    }

    /**
     * An operator stopped the embedded server: starting another behind their back would undo the
     * stop, so this waits, saying what it knows, until a server serves on the data directory again
     * (another process started one: joining it starts nothing). False once stopped; the operator's
     * Connect starts a new server through a new watch.
     */
    private boolean awaitAnotherServer(ServerLink stoppedLink) {
      EmbeddedEngine gone = session.embedded().orElseThrow();
      ServerLink known = stoppedLink;
      while (sleep(PERIOD) && !stopped) {
        java.util.OptionalLong serving = EmbeddedEngine.serving(gone.dataDirectory());
        if (serving.isPresent() && serving.getAsLong() != gone.pid()) {
          return true;
        }
        ServerHealth health = session.health(TIMEOUT);
        if (!health.sentence().equals(known.sentence())) {
          known = ServerLink.stopped(health.sentence(), known.since());
          publish(known);
        }
      }
      return false;
    }

    /** Attempts to open a new session until one opens and the FX thread took it; null once stopped. */
    private Session reconnect(ServerLink lost) {
      ServerLink known = lost;
      String failure = "";
      for (int attempt = 1; ; attempt++) {
        known = pauseBefore(attempt, known, failure);
        if (known == null) {
          return null;
        }
        publish(known.reconnecting(attempt, failure));
        try {
          if (session.embedded().isEmpty()) {
            // A server elsewhere is only reopened once its address answers again.
            ServerHealth health = session.health(TIMEOUT);
            if (!health.answering()) {
              failure = health.sentence();
              continue;
            }
          }
          Session fresh = reopen.open(attempt);
          return handOver(fresh) ? fresh : null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        } catch (Exception e) {
          failure = Errors.sentence(e, "reconnect");
        }
      }
    }

    /**
     * Waits before attempt {@code n}. An embedded server that stopped listening before its process
     * ended (a graceful stop) said only that it refused connections; once its process has ended its
     * log says why, and the link says that instead. Returns the loss as now known; null once stopped.
     */
    private ServerLink pauseBefore(int n, ServerLink known, String failure) {
      Optional<EmbeddedEngine> embedded = session.embedded();
      boolean ended = embedded.map(e -> !e.running()).orElse(true);
      long end = System.nanoTime() + backoff(n).toNanos();
      for (long left; (left = end - System.nanoTime()) > 0; ) {
        if (stopped || !sleep(Duration.ofNanos(Math.min(left, PROCESS_PERIOD.toNanos())))) {
          return null;
        }
        if (!ended && !embedded.get().running()) {
          ended = true;
          ServerHealth health = session.health(TIMEOUT);
          if (!health.answering()) {
            known = new ServerLink(known.state(), health.sentence(), known.since(), 0, "");
            publish(n == 1 ? known : known.reconnecting(n - 1, failure));
          }
        }
      }
      return stopped ? null : known;
    }

    /** Gives the new session to the FX thread; closes it again when the watch stopped meanwhile. */
    private boolean handOver(Session fresh) {
      CompletableFuture<Boolean> taken = new CompletableFuture<>();
      executor.onFxThread(() -> {
        if (stopped || loop != this) {
          taken.complete(false);
          return;
        }
        try {
          // Answering first, then the new session: the screens read again on it, and those reads must not wait
          // for a server they think lost. Both in one turn of the FX thread, so nothing acts in between.
          link.set(ServerLink.connected("", Instant.now()));
          reopened.accept(fresh);
          taken.complete(true);
        } catch (RuntimeException e) {
          taken.complete(false);
          throw e;
        }
      });
      boolean ok;
      try {
        ok = taken.get(HAND_OVER.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        ok = false;
      } catch (ExecutionException | TimeoutException e) {
        ok = false;
      }
      if (!ok) {
        fresh.close();
      }
      return ok;
    }

    private void publish(ServerLink now) {
      executor.onFxThread(() -> {
        if (!stopped && loop == this) {
          link.set(now);
        }
      });
    }

    private boolean sleep(Duration d) {
      try {
        Thread.sleep(d);
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
