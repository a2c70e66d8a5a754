package dev.cutover.engine.api;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The operator's word that the corrected live writer, a job outside the database, was deployed for a
 * repair: who said so, when, and what the writer is. It is a line of the audit trail, never proof:
 * that the writer writes v2 from B, and only from B, is read from the data ({@link LiveWriter}). It
 * lets the repair say "deployed, waiting for its first hour" rather than ask for the deployment again.
 *
 * @param writer the operator's words for the writer, such as a job's name and version
 */
public record LiveWriterNote(String repairId, HourPartition boundary, String writer, Instant at, String actor,
    String host) {

  private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
      .withZone(ZoneOffset.UTC);

  /**
   * What a declaration left: the declaration that stands, and whether this one wrote it ({@code false}
   * when the same writer was declared before, and nothing was written).
   */
  public record Declared(LiveWriterNote note, boolean written) {}

  /** One sentence: what was deployed, from where, by whom and when. */
  public String describe() {
    return "The corrected live writer (" + writer + ") was declared deployed from B = " + boundary + " by " + actor
        + "@" + host + " at " + SECOND.format(at) + ".";
  }
}
