package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.TestEngine;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A report prints every value as ClickHouse prints it: each case below is asked of the real server
 * ({@code toString}) and compared with what the report writes for the same value, read as a
 * {@code double} (what a reconciliation carries today) and as a {@link BigDecimal}.
 */
class MeasureFormatTest {

  private static Database db;
  private static Sql sql;

  @BeforeAll
  static void open() {
    db = TestEngine.freshDatabase(MeasureFormatTest.class);
    sql = new Sql(db.dataSource());
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private record Case(String expression, String type) {}

  @Test
  void valuesPrintAsClickHousePrintsThem() {
    List<Case> cases = List.of(
        new Case("toDecimal64('-18.56', 4)", "Decimal(18, 4)"),
        new Case("toDecimal64('-18.56', 2)", "Decimal(18, 2)"),
        new Case("toDecimal64('100', 2)", "Decimal(18, 2)"),
        new Case("toDecimal64('0', 4)", "Decimal(18, 4)"),
        new Case("toDecimal128('123456789.000001', 6)", "Decimal(38, 6)"),
        new Case("toDecimal64('-0.0049', 4)", "Decimal(18, 4)"),
        new Case("toUInt64(18446744073709)", "UInt64"),
        new Case("toInt64(-42)", "Int64"),
        new Case("toFloat64(0.1) + toFloat64(0.2)", "Float64"),
        new Case("toFloat64(-18.56)", "Float64"),
        new Case("toFloat64(1e20)", "Float64"),
        new Case("toFloat64(1.5e21)", "Float64"),
        new Case("toFloat64(1e-7)", "Float64"),
        new Case("toFloat64(0.000001)", "Float64"),
        new Case("toFloat64(-1.2345e-6)", "Float64"),
        new Case("toFloat64(9.99e20)", "Float64"),
        new Case("toFloat64(1e21)", "Float64"),
        new Case("toFloat64(1.25e-8)", "Float64"),
        new Case("toFloat64(123456.5)", "Float64"),
        new Case("toFloat64(0)", "Float64"),
        new Case("toFloat64(-2.5e300)", "Float64"));
    for (Case c : cases) {
      String server = sql.queryOne("print " + c.expression(), "SELECT toString(" + c.expression() + ")",
          rs -> rs.getString(1));
      double asDouble = sql.queryOne("read " + c.expression(), "SELECT toFloat64(" + c.expression() + ")",
          rs -> rs.getDouble(1));
      BigDecimal asDecimal = sql.queryOne("read " + c.expression(), "SELECT " + c.expression(),
          rs -> rs.getBigDecimal(1));
      assertEquals(server, MeasureFormat.format(asDouble, c.type()), c + " read as a double");
      assertEquals(server, MeasureFormat.format(asDecimal, c.type()), c + " read as a decimal");
    }
  }

  /** The bug a user found: a Decimal delta printed as -18.559999999999945. */
  @Test
  void decimalDeltasAreExactDecimals() {
    double v1 = 1234.56;
    double v2 = 1216.0;
    assertNotEquals(-18.56, v2 - v1, "the binary difference is not -18.56, which is why the report must not print it");
    for (String type : List.of("Decimal(18, 2)", "Decimal(18, 4)", "Nullable(Decimal(38, 6))", "")) {
      assertEquals("-18.56", MeasureFormat.format(MeasureFormat.delta(v1, v2, type), type), type);
      assertEquals("-18.56", MeasureFormat.format(MeasureFormat.delta(new BigDecimal("1234.5600"),
          new BigDecimal("1216.0000"), type), type), type + " from decimals");
    }
    assertEquals("-18.559999999999945", MeasureFormat.format(MeasureFormat.delta(v1, v2, "Float64"), "Float64"),
        "a Float64 measure is subtracted in binary, as ClickHouse does");
    assertEquals(-18.559999999999945, MeasureFormat.delta(v1, v2, "Float64").doubleValue());
  }

  @Test
  void typesAreReadFromTheirClickHouseNames() {
    assertEquals(new MeasureFormat.Type(MeasureFormat.Family.DECIMAL, 4), MeasureFormat.Type.of("Decimal(18, 4)"));
    assertEquals(new MeasureFormat.Type(MeasureFormat.Family.DECIMAL, 6), MeasureFormat.Type.of("Decimal64(6)"));
    assertEquals(new MeasureFormat.Type(MeasureFormat.Family.DECIMAL, 0), MeasureFormat.Type.of("Decimal(10)"));
    assertEquals(MeasureFormat.Family.INTEGER, MeasureFormat.Type.of("LowCardinality(Nullable(UInt32))").family());
    assertEquals(MeasureFormat.Family.FLOAT, MeasureFormat.Type.of("Nullable(Float64)").family());
    assertEquals(MeasureFormat.Family.UNKNOWN, MeasureFormat.Type.of("String").family());
    assertEquals(MeasureFormat.Family.UNKNOWN, MeasureFormat.Type.of("").family());
  }
}
