package dev.cutover.engine.backfill;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;

/**
 * Yields the server to the live writer: a run that keeps the live lag in check (its throttle sets
 * {@code max_live_lag}) starts no batch while a statement that writes v1 runs on the server, nor in
 * the moment after one ended (the live writer's next statement of the same hour usually follows), and
 * holds back at most {@link #MOST} at a time, so that a writer that never rests does not stop the run.
 * A statement is the live writer's when its text begins {@code INSERT INTO} or {@code ALTER TABLE} v1, or a
 * table whose name begins with v1's, as a writer's staging table's does ({@link #writesPattern}): the demo's
 * live job computes each hour into {@code pnl_v1_live_staging}, its longest statement, before it swaps the hour
 * into v1. One that only reads v1 (a copy of its parts into another table, an export) is not the live writer,
 * and holding back for it cost a batch up to {@link #MOST} each time. The run's own statements are told by
 * their mark.
 */
final class LiveWrites {

  /** How long after the last live write seen the run still holds back. */
  static final Duration QUIET = Duration.ofMillis(300);

  /** The longest a run holds back before a batch. */
  static final Duration MOST = Duration.ofSeconds(2);

  private final Sql sql;
  private final TableSpec spec;
  private Instant lastSeen = Instant.EPOCH;
  private Instant holdingSince;

  LiveWrites(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** Whether the next batch should wait a little longer for the live writer. */
  boolean holdBack() {
    boolean writing = writing();
    // Seen as of the read's answer, not its question: on a loaded server the read itself can take longer than
    // the quiet moment, which would otherwise be over before it began.
    Instant now = Instant.now();
    if (writing) {
      lastSeen = now;
    }
    boolean recent = Duration.between(lastSeen, now).compareTo(QUIET) < 0;
    if (!recent) {
      holdingSince = null;
      return false;
    }
    if (holdingSince == null) {
      holdingSince = now;
    }
    if (Duration.between(holdingSince, now).compareTo(MOST) >= 0) {
      holdingSince = null;
      return false;
    }
    return true;
  }

  private boolean writing() {
    try {
      return sql.queryLong("look for the live writer's statements", "SELECT count() FROM system.processes WHERE "
          + "query_kind IN ('Insert', 'Alter') AND match(query, ?) AND NOT startsWith(Settings['log_comment'], ?)",
          writesPattern(spec.liveTable()), BatchWriter.markerOf(spec).strip()) > 0;
    } catch (QueryFailedException e) {
      return false; // advisory, like the lag: the batches report real failures
    }
  }

  /**
   * A pattern (RE2, as the server's {@code match} takes it) of a statement that writes {@code table} or a table whose
   * name begins with its name: after any comments, {@code INSERT INTO [TABLE]} or {@code ALTER TABLE}, then that name,
   * bare, back-quoted or double-quoted, with or without a database before it.
   */
  static String writesPattern(Identifier table) {
    String name = table.name();
    String named = "(?:" + literal(name) + "\\w*|`" + literal(name.replace("`", "``")) + "(?:[^`]|``)*`|\"" + literal(name)
        + "[^\"]*\")";
    String database = "(?:(?:\\w+|`(?:[^`]|``)*`|\"[^\"]*\")\\s*\\.\\s*)?";
    return "(?s)^(?:\\s|/\\*.*?\\*/|--[^\\n]*\\n)*(?i:INSERT\\s+INTO(?:\\s+TABLE)?|ALTER\\s+TABLE)\\s+" + database + named
        + "(?:[\\s(;]|$)";
  }

  /**
   * {@code text} as a pattern that matches it alone: every ASCII character but a letter, digit or underscore written as
   * its code ({@code \x{2e}}), which RE2 takes for any character; no other character means anything to it.
   */
  private static String literal(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints().forEach(c -> {
      if (c < 128 && !(Character.isLetterOrDigit(c) || c == '_')) {
        out.append("\\x{").append(Integer.toHexString(c)).append('}');
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }
}
