package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Reconciliation;

/**
 * The reconcile screen as the benchmark drives it: shows a report built in memory, as the screen's own
 * tests do (six months of hours without a server to reconcile them), and tells how wide an hour is
 * drawn. It sits in the screen's package for {@code ReconcileModel.show} and the charts' geometry,
 * which only tests and benchmarks read.
 */
public final class BuiltReport {

  private BuiltReport() {}

  /** Shows {@code r} as a reconciliation run on the screen would: the window, the measure and the chosen hour. */
  public static void show(ReconcileModel model, Reconciliation r) {
    model.show(r);
  }

  /** How wide one hour is drawn on the screen's charts now, in pixels. */
  public static double pixelsPerHour(ReconcileView view) {
    return view.totals().columnWidth();
  }
}
