package dev.cutover.engine.repair;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.ledger.CutoverSchema;
import dev.cutover.engine.sql.NameClaims;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The state of each target's repair in ClickHouse, changed only by compare-and-set.
 *
 * <p>Each state record is a table of its own, {@code repair__<target>__v<version>}, with no data
 * and the record as JSON in its comment. Creating a table of a name that exists fails on the
 * server (code 57), so of two processes that read version N and write version N + 1, exactly one
 * succeeds: the other is told that the repair moved and by whom. Older records are dropped once
 * three newer ones exist; a process that read a version so old that its successor was dropped
 * could create it again, so every writer reads the versions back after writing and withdraws a
 * record that is not the newest. Each winning record is also appended to {@code repair_log}, the
 * history the console and the command line show.
 */
public final class RepairStore {


  /** How many of the newest state records are kept as tables; the log keeps every one. */
  static final int KEEP = 3;

  private static final JsonMapper JSON = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

  private final Sql sql;
  private final Identifier database;

  public RepairStore(Sql sql, String database) {
    this.sql = sql;
    this.database = Identifier.simple("database", database);
  }

  /** The newest state record of the target's repair, ended or not; empty when it never had one. */
  public Optional<Repair> current(String target) {
    return markers(target).stream().max(Comparator.comparingLong(Marker::version)).map(m -> decode(m.comment()));
  }

  /** The state records of the target's repairs, newest first, from the log. */
  public List<Repair> history(String target, int limit) {
    if (sql.queryLong("look for the repair log", "SELECT count() FROM system.tables WHERE database = ? AND name = "
        + "'repair_log'", database.name()) == 0) {
      return List.of();
    }
    return sql.query("read the repair log of " + target, "SELECT record FROM " + database.quoted() + ".repair_log "
        + "WHERE target = ? ORDER BY version DESC LIMIT ?", rs -> decode(rs.getString(1)), target, limit);
  }

  /**
   * Writes {@code next} as the record after {@code expected} (empty for the first record of the
   * target), or refuses when another process wrote that version first.
   *
   * @throws HeldByAnotherProcessException naming the process that moved the repair, and when, when this one
   *     lost
   */
  public Repair write(Optional<Repair> expected, Repair next, String step) {
    long version = expected.map(Repair::version).orElse(0L) + 1;
    if (next.version() != version) {
      throw new IllegalArgumentException("record " + next.version() + " does not follow " + version);
    }
    legal(expected, next);
    String name = markerName(next.target(), version);
    if (!new NameClaims(sql, database).claim("record the repair of " + next.target() + " at version " + version, name,
        encode(next))) {
      throw lost(next.target(), step); // another process wrote this version first
    }
    List<Marker> markers = markers(next.target());
    long newest = markers.stream().mapToLong(Marker::version).max().orElse(version);
    if (newest != version) {
      // A stale reader recreated a version that had been dropped: the newer one stands.
      dropQuietly(name);
      throw lost(next.target(), step);
    }
    for (Marker m : markers) {
      if (m.version() <= version - KEEP) {
        dropQuietly(m.name());
      }
    }
    log(next);
    return next;
  }

  /** A repair moves only as its phases allow; a new repair follows only one that has ended. */
  static void legal(Optional<Repair> expected, Repair next) {
    if (expected.isEmpty() || !expected.get().id().equals(next.id())) {
      if (expected.isPresent() && !expected.get().phase().ended() || next.phase() != RepairPhase.PLANNED) {
        throw new IllegalStateException("repair " + next.id() + " cannot start as " + next.phase() + " after "
            + expected.map(r -> r.id() + " " + r.phase()).orElse("nothing"));
      }
      return;
    }
    RepairPhase from = expected.get().phase();
    if (from != next.phase() && !from.canBecome(next.phase())) {
      throw new IllegalStateException("repair " + next.id() + " is " + from.words() + " and cannot become "
          + next.phase().words());
    }
  }

  /**
   * The refusal of a write that lost the compare-and-set: another process holds the repair, for the
   * operation it took with its record, or for the moment it took to record something newer. Either way
   * the same step can be tried again (exit 8 on the command line), and it then meets the repair as that
   * process left it.
   */
  private HeldByAnotherProcessException lost(String target, String step) {
    Optional<Repair> now = current(target);
    String who = now.map(r -> r.operation().map(o -> "the " + o.describe()).orElse(r.by() + ", who recorded it as "
        + r.phase().words() + " at " + Figures.time(r.at()))).orElse("another process");
    String situation = "Another process changed the repair of " + target + " at the same moment: " + who
        + ". Nothing was done;";
    String whatToDo = "look at where the repair stands now and decide again.";
    Optional<Repair.Operation> holding = now.flatMap(Repair::operation);
    if (holding.isPresent()) {
      return HeldByAnotherProcessException.of(step, holding.get(), situation, whatToDo);
    }
    // The record this writer lost to is there but for a moment (records are dropped only once newer ones exist).
    return now.map(winner -> HeldByAnotherProcessException.of(step, winner, situation, whatToDo))
        .orElseGet(() -> new HeldByAnotherProcessException(step, "changed the repair", Optional.empty(),
            new Repair.Actor("", "", 0), Instant.now(), situation, whatToDo));
  }

  private void log(Repair r) {
    try {
      CutoverSchema.ensure(sql, database);
      sql.execute("log the repair of " + r.target(), "INSERT INTO " + database.quoted() + ".repair_log VALUES (?, ?, ?, ?, "
          + "fromUnixTimestamp64Milli(?, 'UTC'), ?)", r.target(), r.id(), r.version(), r.phase().name(),
          r.at().toEpochMilli(), encode(r));
    } catch (QueryFailedException e) {
      // The state record above is the truth; the log is its history for people and may miss a line.
      CutoverSchema.forget(sql, database); // read again next time, if a table went
    }
  }

  private record Marker(String name, long version, String comment) {}

  private List<Marker> markers(String target) {
    String prefix = markerPrefix(target);
    List<Marker> out = new ArrayList<>();
    sql.query("read the state of the repair of " + target, "SELECT name, comment FROM system.tables WHERE database = ? "
        + "AND startsWith(name, ?)", rs -> out.add(new Marker(rs.getString(1),
            Long.parseLong(rs.getString(1).substring(prefix.length())), rs.getString(2))), database.name(), prefix);
    return out;
  }

  private void dropQuietly(String name) {
    try {
      sql.execute("drop an old repair record", "DROP TABLE IF EXISTS " + database.quoted() + "."
          + Identifier.of(name).quoted());
    } catch (QueryFailedException e) {
      // Kept: the newest record decides, whatever older ones remain.
    }
  }

  static String markerPrefix(String target) {
    String hash;
    try {
      hash = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(target.getBytes(java.nio.charset.StandardCharsets.UTF_8))).substring(0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    // Sanitizing alone could map two targets to one name (a_b.c and a.b_c); the hash keeps them apart.
    return "repair__" + target.replaceAll("[^A-Za-z0-9_]", "_") + "_" + hash + "__v";
  }

  static String markerName(String target, long version) {
    return markerPrefix(target) + String.format("%010d", version);
  }

  /** A string literal for DDL, where the server takes no bound parameters. */

  /**
   * The stored form: plain fields, so that the record reads the same whatever this class becomes. {@code liveView}
   * holds the corrected views' names separated by commas (a name holds none), as one view's record always did.
   */
  record Stored(String id, String target, long version, String phase, long boundary, long firstHour,
      String specName, String transformSha256, String opAction, String opUser, String opHost, long opPid,
      long opSince, String opRun, long at, String byUser, String byHost, long byPid, String note, String liveView) {}

  static String encode(Repair r) {
    var op = r.operation();
    Stored s = new Stored(r.id(), r.target(), r.version(), r.phase().name(),
        r.boundary().map(HourPartition::epochSecond).orElse(0L), r.firstHour().map(HourPartition::epochSecond).orElse(0L),
        r.specName(), r.transformSha256(), op.map(Repair.Operation::action).orElse(""),
        op.map(o -> o.holder().user()).orElse(""), op.map(o -> o.holder().host()).orElse(""),
        op.map(o -> o.holder().pid()).orElse(0L), op.map(o -> o.since().toEpochMilli()).orElse(0L),
        op.map(Repair.Operation::runId).orElse(""), r.at().toEpochMilli(), r.by().user(), r.by().host(), r.by().pid(),
        r.note().length() > 2000 ? r.note().substring(0, 1997) + "..." : r.note(),
        String.join(",", r.liveViews().stream().map(Identifier::name).toList()));
    return JSON.writeValueAsString(s);
  }

  static Repair decode(String json) {
    Stored s = JSON.readValue(json, Stored.class);
    Optional<Repair.Operation> op = s.opAction().isEmpty() ? Optional.empty() : Optional.of(new Repair.Operation(
        s.opAction(), new Repair.Actor(s.opUser(), s.opHost(), s.opPid()), Instant.ofEpochMilli(s.opSince()),
        s.opRun() == null ? "" : s.opRun()));
    return new Repair(s.id(), s.target(), s.version(), RepairPhase.valueOf(s.phase()),
        s.boundary() == 0 ? Optional.empty() : Optional.of(HourPartition.ofEpochSecond(s.boundary())),
        s.firstHour() == 0 ? Optional.empty() : Optional.of(HourPartition.ofEpochSecond(s.firstHour())),
        s.specName(), s.transformSha256(),
        s.liveView() == null || s.liveView().isEmpty() ? java.util.List.of()
            : java.util.Arrays.stream(s.liveView().split(",")).map(Identifier::of).toList(),
        op, Instant.ofEpochMilli(s.at()),
        new Repair.Actor(s.byUser(), s.byHost(), s.byPid()), s.note());
  }
}
