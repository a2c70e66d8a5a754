package dev.cutover.engine.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.TestEngine;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A step that only reads asks each question of the server once ({@link Sql#readingOnce}): the same read again is
 * answered as the server first answered it, even after another writer changed the table, until the step itself
 * writes. A read whose row mapper captures a value is asked every time.
 */
class ReadMemoTest {

  private Database db;
  private Sql plain;

  @BeforeEach
  void aTableOfOneRow() {
    db = TestEngine.freshDatabase(ReadMemoTest.class);
    plain = db.sql();
    plain.execute("create t", "CREATE TABLE t (n UInt32) ENGINE = MergeTree ORDER BY n");
    plain.execute("fill t", "INSERT INTO t VALUES (1)");
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void theSameReadIsAnsweredOnceUntilTheStepWrites() {
    Sql once = plain.readingOnce();
    assertEquals(1L, once.queryLong("count t", "SELECT count() FROM t WHERE n > ?", 0));
    plain.execute("another writer", "INSERT INTO t VALUES (2)");

    assertEquals(1L, once.queryLong("count t", "SELECT count() FROM t WHERE n > ?", 0), "asked before: remembered");
    assertEquals(2L, once.queryLong("count t again", "SELECT count() FROM t WHERE n > ?", 0), "another purpose");
    assertEquals(2L, once.queryLong("count t", "SELECT count() FROM t WHERE n >= ?", 0), "another statement");
    assertEquals(1L, once.queryLong("count t", "SELECT count() FROM t WHERE n > ?", 1), "other values");
    assertEquals(2L, plain.queryLong("count t", "SELECT count() FROM t WHERE n > ?", 0), "no memo outside the step");
    assertEquals(2L, plain.readingOnce().queryLong("count t", "SELECT count() FROM t WHERE n > ?", 0),
        "each step starts with nothing known");

    once.execute("the step writes", "INSERT INTO t VALUES (3)");
    assertEquals(3L, once.queryLong("count t", "SELECT count() FROM t WHERE n > ?", 0), "after its own write");
  }

  @Test
  void aReadWhoseMapperCapturesAValueIsAskedEveryTime() {
    Sql once = plain.readingOnce();
    long offset = 100;
    Sql.Row<Long> shifted = rs -> rs.getLong(1) + offset;
    assertEquals(101L, once.queryOne("count t", "SELECT count() FROM t", shifted));
    plain.execute("another writer", "INSERT INTO t VALUES (2)");
    assertEquals(102L, once.queryOne("count t", "SELECT count() FROM t", shifted));
  }

  @Test
  void rowsAnsweredFromMemoryAreACopyTheCallerMayChangeAndANullIsRemembered() {
    Sql once = plain.readingOnce();
    Sql.Row<Long> n = rs -> rs.getLong(1);
    List<Long> first = once.query("read t", "SELECT n FROM t ORDER BY n", n);
    first.add(99L);
    plain.execute("another writer", "INSERT INTO t VALUES (2)");
    assertEquals(List.of(1L), once.query("read t", "SELECT n FROM t ORDER BY n", n));

    Sql.Row<String> text = rs -> rs.getString(1);
    String sql = "SELECT if(count() > 1, NULL, 'one') FROM t WHERE n < ?";
    assertEquals("one", once.queryOne("a null", sql, text, 2));
    plain.execute("another writer", "INSERT INTO t VALUES (0)");
    assertEquals(Arrays.asList((String) null), plain.query("a null", sql, text, 2), "the server's answer now");
    assertEquals(List.of("one"), once.query("a null", sql, text, 2), "the step's");
    once.execute("the step writes", "INSERT INTO t VALUES (4)");
    assertEquals(Arrays.asList((String) null), once.query("a null", sql, text, 2), "after its own write");
    assertEquals(Arrays.asList((String) null), once.query("a null", sql, text, 2), "a null remembered");
  }
}
