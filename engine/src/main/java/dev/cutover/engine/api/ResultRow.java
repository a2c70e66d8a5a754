package dev.cutover.engine.api;

/**
 * One row of a result, read by column position from 1, as the server typed it. A value that does
 * not convert is a {@link QueryFailedException} naming the column.
 */
public interface ResultRow {

  String string(int column);

  long number(int column);

  /** Reads one row into a value of the caller's. */
  @FunctionalInterface
  interface Reader<T> {
    T read(ResultRow row);
  }
}
