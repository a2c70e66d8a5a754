package dev.cutover.engine.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SqlTextTest {

  @Test
  void commentsGoAndQuotedTextStays() {
    assertEquals("SELECT 1 \nFROM t   WHERE s = '-- not a comment' AND `a/*b` = 2\n",
        SqlText.withoutComments("SELECT 1 -- the desk's book\nFROM t /* it's ? here */ WHERE s = '-- not a comment' "
            + "AND `a/*b` = 2\n-- last line, no newline after it"));
    assertEquals("SELECT 'it\\'s'", SqlText.withoutComments("SELECT 'it\\'s'"));
  }
}
