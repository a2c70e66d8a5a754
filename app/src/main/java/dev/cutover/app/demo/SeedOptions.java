package dev.cutover.app.demo;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Instant;

/**
 * What to seed: the seed of every hash, the volume, and the history (so many days ending at
 * {@code end}, a whole UTC hour; by default the current hour). Validated on construction.
 *
 * <pre>{@code
 * SeedOptions.defaults();                                   // seed 42, scale 1, 183 days up to now
 * new SeedOptions(7, 0.05, 3, Instant.parse("2026-11-29T10:00:00Z"));
 * new SeedOptions(7, 0.05, 30, null, 5);                    // the fee bug only in the last five days
 * new SeedOptions(7, 0.05, 30, null, 0, true);              // v1 fed by a materialized view on trades
 * }</pre>
 *
 * @param bugDays how many days before {@code end} the fee bug shipped; v1 is correct before that day.
 *     0: the bug is in the whole history
 * @param viewFed whether v1 is appended to by a materialized view on trades (a SummingMergeTree) rather
 *     than replaced hour by hour by a live job outside the database
 */
public record SeedOptions(long seed, double scale, int historyDays, Instant end, int bugDays, boolean viewFed) {

  public static final long DEFAULT_SEED = 42;
  public static final double DEFAULT_SCALE = 1.0;
  /** Six months: 183 days, 4,392 hourly partitions. */
  public static final int DEFAULT_HISTORY_DAYS = 183;
  public static final double MAX_SCALE = 100;
  public static final int MAX_HISTORY_DAYS = 731;

  public SeedOptions {
    if (seed < 0) {
      throw new InvalidInputException("seed", "The seed " + seed + " is negative; give a whole number from 0 to "
          + Long.MAX_VALUE + ".");
    }
    if (!(scale > 0) || scale > MAX_SCALE || Double.isNaN(scale)) {
      throw new InvalidInputException("scale", "The scale " + scale + " is out of range; give a number above 0 "
          + "and at most " + (int) MAX_SCALE + " (1 makes about 5 million trades over six months).");
    }
    if (historyDays < 1 || historyDays > MAX_HISTORY_DAYS) {
      throw new InvalidInputException("history-days", "The history of " + historyDays + " days is out of range; "
          + "give 1 to " + MAX_HISTORY_DAYS + " days (183 is six months).");
    }
    if (end == null) {
      end = Hours.floor(Instant.now());
    }
    Hours.requireWhole("end of history", end);
    if (bugDays < 0 || bugDays > historyDays) {
      throw new InvalidInputException("bug-days", "The bug of " + bugDays + " days does not fit the history of "
          + historyDays + " days; give 1 to " + historyDays + " days, or leave --bug-days out for a bug in the "
          + "whole history.");
    }
    if (viewFed && bugDays > 0) {
      throw new InvalidInputException("bug-days", "A view-fed v1 has the bug in its whole history (the view "
          + "computed every hour as trades arrived); leave --bug-days out with --live mv.");
    }
  }

  public SeedOptions(long seed, double scale, int historyDays, Instant end, int bugDays) {
    this(seed, scale, historyDays, end, bugDays, false);
  }

  public SeedOptions(long seed, double scale, int historyDays, Instant end) {
    this(seed, scale, historyDays, end, 0, false);
  }

  /** The first hour v1 was computed with the fee bug: the start of history unless the bug is bounded. */
  public Instant bugFrom() {
    return bugDays == 0 ? start() : end.minus(Hours.ONE.multipliedBy(bugDays * 24L));
  }

  public static SeedOptions defaults() {
    return new SeedOptions(DEFAULT_SEED, DEFAULT_SCALE, DEFAULT_HISTORY_DAYS, null, 0, false);
  }

  /** The first hour of history. */
  public Instant start() {
    return end.minus(Hours.ONE.multipliedBy(historyHours()));
  }

  public int historyHours() {
    return historyDays * 24;
  }
}
