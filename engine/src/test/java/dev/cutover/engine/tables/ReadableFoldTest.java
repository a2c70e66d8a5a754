package dev.cutover.engine.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How each column type of a folding table is merged: the function a reader must apply, from the type alone. */
class ReadableFoldTest {

  @Test
  void statesMergeByTheirFunctionWithItsParametersAndVersion() {
    assertEquals(new Readable.Fold("uniqMerge(%s)", ""), Readable.fold("AggregateFunction(uniq, UInt64)", false));
    assertEquals(new Readable.Fold("quantilesMerge(0.5, 0.9)(%s)", ""),
        Readable.fold("AggregateFunction(quantiles(0.5, 0.9), Float64)", false));
    assertEquals(new Readable.Fold("sumMapMerge(%s)", ""),
        Readable.fold("AggregateFunction(1, sumMap, Tuple(Array(UInt8), Array(UInt64)))", false));
  }

  @Test
  void simpleAggregatesAndSummedNumbersKeepTheirType() {
    assertEquals(new Readable.Fold("max(%s)", "DateTime('UTC')"),
        Readable.fold("SimpleAggregateFunction(max, DateTime('UTC'))", false));
    assertEquals(new Readable.Fold("sum(%s)", "Decimal(38, 4)"), Readable.fold("Decimal(38, 4)", true));
    assertEquals(new Readable.Fold("any(%s)", ""), Readable.fold("Decimal(38, 4)", false));
    assertEquals(new Readable.Fold("any(%s)", ""), Readable.fold("LowCardinality(String)", true));
  }
}
