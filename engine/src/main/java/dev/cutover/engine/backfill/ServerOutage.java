package dev.cutover.engine.backfill;

import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.sql.Timeouts;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.BooleanSupplier;

/**
 * A run's one wait for a server that gives no answer. Without it every batch in flight would spend
 * its own attempts on a server that is simply down, and a run of many small batches would take an
 * hour to fail. The first batch that meets a refused or cut-off connection opens the outage and
 * probes the server with a growing backoff; every other batch waits for the same answer instead of
 * retrying on its own, and no new batch starts. The outage ends when the server answers (the batches
 * try their statements again) or when it has lasted the run's server wait (the run fails with one
 * sentence, and every hour already written stays written for a resume).
 *
 * <p>A server that stops answering without closing its connections (stopped, hung) is found out by
 * the first read that times out ({@link Timeouts#SILENCE}); the outage counts from the last byte that
 * read heard, and each probe waits at most {@link Timeouts#PROBE}, so the run ends within its server
 * wait (or the silence bound, when that is longer) and a probe.
 */
final class ServerOutage {

  /** What the prober says while it waits: the probe's number, the wait before the next one, the failure. */
  interface Probing {
    void waiting(int probe, Duration next, String sentence);
  }

  private static final Duration MAX_BACKOFF = Duration.ofSeconds(15);
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private final Sql probes;
  private final Duration silence;
  private final Object lock = new Object();
  private Instant since;
  private boolean probing;
  private long recoveries;
  private String gaveUp;
  private volatile boolean ongoing;

  /** {@code sql}: the run's statements, whose silence bound tells how long a read that timed out heard nothing. */
  ServerOutage(Sql sql) {
    this.probes = sql.silentAtMost(Timeouts.PROBE);
    this.silence = sql.silence();
  }

  /** Whether the server is known not to answer now: no batch should start. */
  boolean ongoing() {
    return ongoing;
  }

  /** The sentence the run ends with once it gave up waiting; null before. */
  String gaveUp() {
    synchronized (lock) {
      return gaveUp;
    }
  }

  /**
   * Waits until the server answers again ({@code true}), or until it has not answered for {@code
   * limit} or the run was cancelled ({@code false}). One caller probes; the others wait for its result.
   */
  boolean await(QueryFailedException failure, Duration limit, Duration firstBackoff, BooleanSupplier cancelled,
      Probing report) throws InterruptedException {
    long seen;
    synchronized (lock) {
      if (gaveUp != null) {
        return false;
      }
      if (since == null) {
        // A read that timed out had heard nothing for the whole silence bound: a stopped server began then.
        since = Timeouts.silent(failure) ? Instant.now().minus(silence) : Instant.now();
        ongoing = true;
      }
      seen = recoveries;
      if (probing) {
        while (recoveries == seen && gaveUp == null && !cancelled.getAsBoolean()) {
          lock.wait(500);
        }
        return recoveries != seen;
      }
      probing = true;
    }
    boolean back = false;
    String last = failure.getMessage();
    try {
      back = probe(limit, firstBackoff, cancelled, report, last);
    } finally {
      synchronized (lock) {
        probing = false;
        if (back) {
          since = null;
          ongoing = false;
          recoveries++;
        } else if (!cancelled.getAsBoolean()) {
          gaveUp = "The server has not answered for " + words(limit) + ", since " + CLOCK.format(sinceOrNow())
              + " UTC (" + cause(last) + "). The run stopped; every hour written before stays written: resume "
              + "the run once the server answers.";
        }
        lock.notifyAll();
      }
    }
    return back;
  }

  private boolean probe(Duration limit, Duration firstBackoff, BooleanSupplier cancelled, Probing report, String last)
      throws InterruptedException {
    Instant deadline = sinceOrNow().plus(limit);
    Duration backoff = firstBackoff.isZero() ? Duration.ofMillis(200) : firstBackoff;
    for (int probe = 1; ; probe++) {
      Duration left = Duration.between(Instant.now(), deadline);
      boolean over = left.isNegative() || left.isZero();
      // Once asked at least: a silence longer than the wait itself is over by the time it is known.
      if (cancelled.getAsBoolean() || over && probe > 1) {
        return false;
      }
      Duration wait = over ? Duration.ZERO : backoff.compareTo(left) < 0 ? backoff : left;
      report.waiting(probe, wait, last);
      Thread.sleep(wait);
      try {
        probes.queryLong("check that the server answers", "SELECT 1");
        return true;
      } catch (QueryFailedException e) {
        if (!e.unreachable()) {
          // It answers, with an error of its own: the batches meet that error themselves.
          return true;
        }
      }
      backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
    }
  }

  private Instant sinceOrNow() {
    synchronized (lock) {
      return since == null ? Instant.now() : since;
    }
  }

  /** The failure without the advice that follows it, which the run's own sentence replaces. */
  private static String cause(String sentence) {
    int advice = sentence.indexOf(" This can pass");
    String core = advice < 0 ? sentence : sentence.substring(0, advice);
    return "the last try said: " + (core.endsWith(".") ? core.substring(0, core.length() - 1) : core);
  }

  static String words(Duration d) {
    long s = d.toSeconds();
    return s < 120 ? s + " s" : s % 60 == 0 ? s / 60 + " min" : s / 60 + " min " + s % 60 + " s";
  }
}
