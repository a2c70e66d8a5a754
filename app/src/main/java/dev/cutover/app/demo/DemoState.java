package dev.cutover.app.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Where the demo world stands, as kept in its {@code demo_state} table: how it was seeded, the live
 * job's simulated clock, and from which hour the live job also writes v2.
 *
 * <p>The clock moves in {@linkplain #TICK ten-minute} steps. An hour closes when the clock has
 * passed its end by the {@linkplain #ALLOWED_LATENESS allowed lateness}: hour {@code H} closes at
 * {@code H + 1h + 10 min}, so every trade of {@code H}, late ones included, is in before it is
 * written.
 *
 * @param seed the seed of every hash that made the world
 * @param scale the volume knob the world was seeded with
 * @param historyDays the days of history before the live job took over
 * @param historyStart the first hour of history
 * @param liveStart the first hour the live job closes; every hour before it was written by the seed
 * @param incidentHour the hour of v1 that a retried append wrote twice, if the history had one
 * @param clock the live job's simulated time: sources are in up to here
 * @param v2From the boundary B from which the live job also writes v2, once deployed
 * @param writer the id of the live job that holds the world, or empty
 * @param writerUntil until when (wall clock) that live job holds it unless it writes again
 * @param bugFrom the first hour v1 holds the fee bug: the history start, unless the seed bounded the bug
 * @param viewFed whether v1 is appended to by a materialized view on trades, not written by the live job
 */
public record DemoState(
    long seed,
    double scale,
    int historyDays,
    Instant historyStart,
    Instant liveStart,
    Optional<Instant> incidentHour,
    Instant clock,
    Optional<Instant> v2From,
    String writer,
    Optional<Instant> writerUntil,
    Instant bugFrom,
    boolean viewFed) {

  /** How far the simulated clock moves in one step. */
  public static final Duration TICK = Duration.ofMinutes(10);
  /** How late an event may arrive after its hour ended and still count in that hour. */
  public static final Duration ALLOWED_LATENESS = Duration.ofMinutes(10);

  static final String SEED = "seed";
  static final String SCALE = "scale";
  static final String HISTORY_DAYS = "history_days";
  static final String HISTORY_START = "history_start";
  static final String LIVE_START = "live_start";
  static final String INCIDENT_HOUR = "incident_hour";
  static final String BUG_FROM = "bug_from";
  static final String CLOCK = "clock";
  static final String V2_FROM = "v2_from";
  static final String WRITER = "writer";
  static final String WRITER_UNTIL = "writer_until";
  static final String SEEDED = "seeded";
  static final String LIVE = "live";
  static final String LIVE_VIEW = "mv";
  static final String SEEDED_COMPLETE = "complete";

  /** Every hour before this one is closed: written to v1 (and to v2 from {@link #v2From}). */
  public Instant watermark() {
    return Hours.floor(clock.minus(ALLOWED_LATENESS));
  }

  /** Whether a live job holds the world at {@code now}. */
  public boolean writerActive(Instant now) {
    return !writer.isEmpty() && writerUntil.map(until -> until.isAfter(now)).orElse(false);
  }

  /** Reads the newest value of each key; empty if the world was never completely seeded. */
  static Optional<DemoState> from(Map<String, String> values) {
    if (!SEEDED_COMPLETE.equals(values.get(SEEDED))) {
      return Optional.empty();
    }
    return Optional.of(new DemoState(
        Long.parseLong(values.get(SEED)),
        Double.parseDouble(values.get(SCALE)),
        Integer.parseInt(values.get(HISTORY_DAYS)),
        instant(values.get(HISTORY_START)).orElseThrow(),
        instant(values.get(LIVE_START)).orElseThrow(),
        instant(values.get(INCIDENT_HOUR)),
        instant(values.get(CLOCK)).orElseThrow(),
        instant(values.get(V2_FROM)),
        values.getOrDefault(WRITER, ""),
        instant(values.get(WRITER_UNTIL)),
        instant(values.get(BUG_FROM)).orElse(instant(values.get(HISTORY_START)).orElseThrow()),
        LIVE_VIEW.equals(values.get(LIVE))));
  }

  static String value(Instant instant) {
    return Long.toString(instant.getEpochSecond());
  }

  private static Optional<Instant> instant(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(Instant.ofEpochSecond(Long.parseLong(value)));
  }
}
