package dev.cutover.engine.testing;

import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.spec.SpecLoader;

/** Specs shaped like the demo's PnL, parsed and never checked against a server: for reports built in memory. */
public final class PnlSpecs {

  private PnlSpecs() {}

  /** Two key columns (book, instrument), three measures (quantity, fees_usd, pnl_usd) and a fee fix rule. */
  public static TableSpec threeMeasures() {
    return SpecLoader.parse("""
        spec: 1
        name: pnl
        database: trading
        tables:
          live: pnl_v1
          target: pnl_v2
          consumer_view: pnl
        time_column: hour
        keys: [book, instrument]
        measures: [quantity, fees_usd, pnl_usd]
        sources:
          - table: trades
            time_column: ts
        transform: |
          SELECT toStartOfHour(ts) AS hour, book, instrument, sum(qty) AS quantity, sum(fee) AS fees_usd,
            sum(pnl) AS pnl_usd FROM {trades} WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime}
            GROUP BY hour, book, instrument
        expected_differences:
          - name: fee_fix
            where: v1.fees_usd != 0
            delta:
              pnl_usd: -1 * v1.fees_usd
            tolerance: 0.01
            why: v1 left the fees out of the PnL
        throttle:
          concurrency: 2
          batch_hours: 24
        boundary:
          safety_margin_hours: 3
        reconciliation:
          minimum_overlap_hours: 24
        retention:
          consumers:
            - name: dashboards
              cache_lifetime: 12h
          safety_margin: 6h
        """, "pnl.yaml");
  }
}
