package dev.cutover.ui.connection;

import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ServerHealth;
import dev.cutover.ui.common.Errors;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One watched session of a {@link ConnectionWatch} and the sessions that replace it, on a thread of
 * its own until the watch pauses it: probes the server, says at once when it stops answering, waits
 * while an operator's stop holds, and reconnects with a growing pause, handing each new session to
 * the FX thread.
 */
final class ProbeLoop implements Runnable {

  private final ConnectionWatch watch;
  private final ConnectionWatch.Reopen reopen;
  private final Consumer<Session> reopened;
  private final ServerLink from;
  volatile boolean stopped;
  private Session session;

  ProbeLoop(ConnectionWatch watch, Session session, ConnectionWatch.Reopen reopen, Consumer<Session> reopened,
      ServerLink from) {
    this.watch = watch;
    this.session = session;
    this.reopen = reopen;
    this.reopened = reopened;
    this.from = from;
  }

  @Override
  public void run() {
    ServerLink known = from;
    while (!stopped) {
      ServerHealth health = session.health(ConnectionWatch.TIMEOUT);
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
    long end = System.nanoTime() + ConnectionWatch.PERIOD.toNanos();
    for (long left; (left = end - System.nanoTime()) > 0; ) {
      if (stopped) {
        return false;
      }
      if (embedded.isPresent() && (!embedded.get().running() || embedded.get().whyStopping().isPresent())) {
        return true;
      }
      if (!sleep(Duration.ofNanos(Math.min(left, ConnectionWatch.PROCESS_PERIOD.toNanos())))) {
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
    while (sleep(ConnectionWatch.PERIOD) && !stopped) {
      java.util.OptionalLong serving = EmbeddedEngine.serving(gone.dataDirectory());
      if (serving.isPresent() && serving.getAsLong() != gone.pid()) {
        return true;
      }
      ServerHealth health = session.health(ConnectionWatch.TIMEOUT);
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
          ServerHealth health = session.health(ConnectionWatch.TIMEOUT);
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
   * ended (a graceful stop, or a kill: its connections break a moment before its process is gone) said
   * only that it refused connections; once its process has ended its log says why, and the link says
   * that instead. Returns the loss as now known; null once stopped.
   */
  private ServerLink pauseBefore(int n, ServerLink known, String failure) {
    Optional<EmbeddedEngine> embedded = session.embedded();
    // Asked in every pause, not only when the process ends during it: one that had ended by the first pause was
    // still running when the loss was worded, and the link would keep saying only that it refused connections.
    boolean ended = embedded.isEmpty();
    long end = System.nanoTime() + ConnectionWatch.backoff(n).toNanos();
    for (long left; (left = end - System.nanoTime()) > 0; ) {
      if (stopped || !sleep(Duration.ofNanos(Math.min(left, ConnectionWatch.PROCESS_PERIOD.toNanos())))) {
        return null;
      }
      if (!ended && !embedded.get().running()) {
        ended = true;
        ServerHealth health = session.health(ConnectionWatch.TIMEOUT);
        if (!health.answering() && !health.sentence().equals(known.sentence())) {
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
    watch.executor().onFxThread(() -> {
      if (stopped || !watch.runs(this)) {
        taken.complete(false);
        return;
      }
      try {
        // Answering first, then the new session: the screens read again on it, and those reads must not wait
        // for a server they think lost. Both in one turn of the FX thread, so nothing acts in between.
        watch.show(ServerLink.connected("", Instant.now()));
        reopened.accept(fresh);
        taken.complete(true);
      } catch (RuntimeException e) {
        taken.complete(false);
        throw e;
      }
    });
    boolean ok;
    try {
      ok = taken.get(ConnectionWatch.HAND_OVER.toSeconds(), TimeUnit.SECONDS);
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
    watch.executor().onFxThread(() -> {
      if (!stopped && watch.runs(this)) {
        watch.show(now);
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
