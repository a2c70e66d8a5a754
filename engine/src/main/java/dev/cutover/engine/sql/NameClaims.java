package dev.cutover.engine.sql;

import dev.cutover.engine.api.ErrorCodes;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import java.util.List;
import java.util.Optional;

/**
 * Compare-and-set on a ClickHouse server that has no transactions: a claim is an empty table whose
 * name is the thing claimed. The server refuses a second CREATE of a name that exists ({@link
 * ErrorCodes#TABLE_ALREADY_EXISTS}), so of two writers that claim the same name at once exactly one
 * succeeds. A claim carries a short note in its table comment (who, what, when), for the loser's
 * sentence.
 *
 * <pre>{@code
 * if (!claims.claim("move run R to step 4", "run__R__s4", note)) { ... another writer won ... }
 * }</pre>
 */
public final class NameClaims {

  /** A claim found on the server: the table's name and its note. */
  public record Claim(String name, String note) {}

  private final Sql sql;
  private final Identifier database;

  public NameClaims(Sql sql, Identifier database) {
    this.sql = sql;
    this.database = database;
  }

  /**
   * Creates the claim {@code name}: {@code true} when this caller made it, {@code false} when it
   * existed already (another writer won). Other failures are thrown as they are.
   */
  public boolean claim(String what, String name, String note) {
    try {
      sql.execute(what, "CREATE TABLE " + qualified(name) + " (v UInt8) ENGINE = Null COMMENT " + literal(note));
      return true;
    } catch (QueryFailedException e) {
      if (e.errorCode() == ErrorCodes.TABLE_ALREADY_EXISTS) {
        return false;
      }
      throw e;
    }
  }

  /**
   * A claim's name for one target: {@code prefix} and the target's name made readable, then a digest of the
   * target's full name, so that two targets whose names read alike never share a claim.
   */
  public static String nameFor(String prefix, String target) {
    try {
      String hash = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(target.getBytes(java.nio.charset.StandardCharsets.UTF_8))).substring(0, 8);
      return prefix + "__" + target.replaceAll("[^A-Za-z0-9_]", "_") + "__" + hash;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The claim of that name, if it exists. */
  public Optional<Claim> find(String what, String name) {
    return sql.query(what, "SELECT name, comment FROM system.tables WHERE database = ? AND name = ?",
        rs -> new Claim(rs.getString(1), rs.getString(2)), database.name(), name).stream().findFirst();
  }

  /** The claims whose names start with {@code prefix}. */
  public List<Claim> list(String what, String prefix) {
    return sql.query(what, "SELECT name, comment FROM system.tables WHERE database = ? AND startsWith(name, ?)",
        rs -> new Claim(rs.getString(1), rs.getString(2)), database.name(), prefix);
  }

  /**
   * Withdraws a claim that must exist: true when this caller dropped it, false when it was gone already (another
   * caller dropped it first). Other failures are thrown as they are.
   */
  public boolean drop(String what, String name) {
    try {
      sql.execute(what, "DROP TABLE " + qualified(name));
      return true;
    } catch (QueryFailedException e) {
      if (e.errorCode() == ErrorCodes.UNKNOWN_TABLE) {
        return false;
      }
      throw e;
    }
  }

  /** Withdraws a claim; one that stays is harmless, so a failure here is not the caller's. */
  public void dropQuietly(String name) {
    try {
      sql.execute("drop the claim " + name, "DROP TABLE IF EXISTS " + qualified(name));
    } catch (QueryFailedException e) {
      // Kept: a leftover claim of an old step is never claimed again by a reader that is current.
    }
  }

  private String qualified(String name) {
    return database.quoted() + "." + Identifier.of(name).quoted();
  }

  /** A string literal for DDL, where the server takes no bound parameters. */
  private static String literal(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
