package dev.cutover.engine.sql;

import dev.cutover.engine.api.ErrorCodes;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Free space on the server's disks, and the reserve Cutover keeps there. ClickHouse writes a table's
 * definition into a file of its own whenever a table is created or altered; on a disk with no space left it
 * can leave that file empty, and a server with an empty definition refuses to start (seen with the embedded
 * 26.7 engine: a full disk, an {@code ALTER … ADD COLUMN IF NOT EXISTS}, then "Cannot parse definition from
 * metadata file"). So Cutover changes no table's definition while the disk holding the server's data has less
 * than the reserve free, and a backfill waits for space before each batch.
 *
 * <p>The reserve is {@value #DEFAULT_RESERVE_MIB} MiB, or {@code CUTOVER_DISK_RESERVE_MIB} when set: a backfill
 * pauses while less than the reserve and its next batch is free. The floor under which no table is created or
 * altered is an eighth of it (8 MiB by default), ample for a table's definition: a run that paused can still
 * record that it did, and a claim on the repair can still be made, until the disk is all but full.
 */
public final class DiskSpace {

  public static final long DEFAULT_RESERVE_MIB = 64;
  /** The environment variable that sets the reserve, in MiB. */
  public static final String RESERVE_VARIABLE = "CUTOVER_DISK_RESERVE_MIB";

  /** How long a reading of free space stands for the statements that ask: one read a second at most. */
  private static final long FRESH_NANOS = 1_000_000_000L;

  /** Statements that write a table's definition: the ones a full disk can leave half written. */
  private static final Pattern DEFINES = Pattern.compile("^\\s*(CREATE|ALTER|ATTACH)\\b",
      Pattern.CASE_INSENSITIVE);

  private final Sql sql;
  private volatile long readAt;
  private volatile long lastFree = -1;

  DiskSpace(Sql sql) {
    this.sql = sql;
  }

  /** The reserve in bytes, from {@code CUTOVER_DISK_RESERVE_MIB} or the default. */
  public static long reserve() {
    String set = System.getenv(RESERVE_VARIABLE);
    if (set != null && set.strip().matches("\\d{1,9}")) {
      return Long.parseLong(set.strip()) << 20;
    }
    return DEFAULT_RESERVE_MIB << 20;
  }

  /** The free space under which no table is created or altered: an eighth of the reserve. */
  public static long floor() {
    return reserve() / 8;
  }

  /** Whether {@code statement} writes a table's definition (CREATE, ALTER, ATTACH). */
  static boolean defines(String statement) {
    return DEFINES.matcher(SqlText.withoutComments(statement)).find();
  }

  /**
   * Free bytes on the server's default disk, where it keeps table definitions: read at most once a second while
   * there is room, at every call while there is not, so that space freed is seen at once.
   */
  public long free() {
    long now = System.nanoTime();
    if (lastFree < 2 * floor() || now - readAt > FRESH_NANOS) {
      lastFree = sql.queryLong("read the free space of the server's disk", "SELECT free_space FROM system.disks "
          + "WHERE name = 'default'");
      readAt = now;
    }
    return lastFree;
  }

  /** Free bytes on the disks that hold {@code table} (the least of its storage policy's), read now. */
  public long freeFor(Identifier database, Identifier table) {
    return sql.queryLong("read free disk space", "SELECT min(free_space) FROM system.disks WHERE name IN (SELECT "
        + "arrayJoin(disks) FROM system.storage_policies WHERE policy_name = ifNull((SELECT any(storage_policy) FROM "
        + "system.tables WHERE database = ? AND name = ?), 'default'))", database.name(), table.name());
  }

  /**
   * Refuses {@code what} when the server's disk has less than the {@link #floor()} free: a failure with the
   * server's own code for it ({@link ErrorCodes#NOT_ENOUGH_SPACE}), which a backfill waits out and a command
   * reports.
   */
  void guard(String what) {
    long reserve = floor();
    long free;
    try {
      free = free();
    } catch (QueryFailedException e) {
      return; // a server that does not say (a user without access to system.disks): the statement answers for itself
    }
    if (free < reserve) {
      throw new QueryFailedException("Could not " + what + ": the disk of the server's data has " + size(free)
          + " free, less than the " + size(reserve) + " Cutover keeps free before it creates or alters a table "
          + "(on a full disk the server can leave a table's definition empty and then refuse to start). Nothing was "
          + "changed. Free space on that disk" + (reserveSet() ? "" : " (or set " + RESERVE_VARIABLE + " lower)")
          + " and run it again.", ErrorCodes.NOT_ENOUGH_SPACE, null, true, false, null);
    }
  }

  private static boolean reserveSet() {
    return System.getenv(RESERVE_VARIABLE) != null;
  }

  /** {@code 63 MiB}, {@code 812 KiB}, {@code 1.2 GiB}. */
  public static String size(long bytes) {
    if (bytes >= 10L << 30) {
      return (bytes >> 30) + " GiB";
    }
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
    return bytes >= 10L << 20 || bytes % (1L << 20) == 0 && bytes > 0 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
  }
}
