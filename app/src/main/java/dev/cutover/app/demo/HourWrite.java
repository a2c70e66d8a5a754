package dev.cutover.app.demo;

import java.time.Instant;

/** One hour written to one version's table: by which writer, how, and how many rows it holds now. */
public record HourWrite(Instant hour, PnlVersion version, String writer, Mode mode, long rows) {

  /** How the hour reached the table. */
  public enum Mode {
    /** Computed into staging and swapped in with {@code REPLACE PARTITION}: atomic and idempotent. */
    REPLACE,
    /** Appended to what was there: what a retried insert does, and why the incident hour is doubled. */
    APPEND,
    /** Inserted by the seed when it loaded the history. */
    INSERT;

    String sqlName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
