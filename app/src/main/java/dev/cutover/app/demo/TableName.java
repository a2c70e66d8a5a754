package dev.cutover.app.demo;

import dev.cutover.engine.api.Identifier;

/**
 * A table (or view) in a database, rendered as {@code `database`.`table`}.
 *
 * <pre>{@code
 * new TableName(Identifier.of("trading"), Identifier.of("pnl_v1")).sql();   // `trading`.`pnl_v1`
 * }</pre>
 */
public record TableName(Identifier database, Identifier table) {

  public static TableName of(Identifier database, String table) {
    return new TableName(database, Identifier.simple("table", table));
  }

  /** The quoted, qualified name to put in SQL text. */
  public String sql() {
    return database.quoted() + "." + table.quoted();
  }

  @Override
  public String toString() {
    return database + "." + table;
  }
}
