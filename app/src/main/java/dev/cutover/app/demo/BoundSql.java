package dev.cutover.app.demo;

import java.util.List;

/** SQL text with {@code ?} placeholders and the values to bind to them, in order. */
public record BoundSql(String sql, List<Object> params) {

  public BoundSql {
    params = List.copyOf(params);
  }

  /** The same statement with {@code prefix} put before its text, e.g. {@code INSERT INTO t }. */
  public BoundSql prefixed(String prefix) {
    return new BoundSql(prefix + sql, params);
  }

  /** The same statement with {@code suffix} put after its text, e.g. a {@code SETTINGS} clause. */
  public BoundSql suffixed(String suffix) {
    return new BoundSql(sql + suffix, params);
  }
}
