package dev.cutover.bench;

import dev.cutover.engine.api.Identifier;
import dev.cutover.ui.reconcile.ChartWindow;
import dev.cutover.ui.reconcile.ChartWindow.Choice;
import dev.cutover.ui.reconcile.ReconcileModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps of section 28: section 6's steps onto the Reconcile screen's views, each reached as the operator
 * reaches it, and the hours each moves between, which the chart library is then moved between alike.
 */
final class LibraryCases {

  private LibraryCases() {}

  /** Section 6's steps, each reached as the operator reaches it, then the floor where nothing moves. */
  static List<LibraryCase> of(ReconcileModel model, double anchor) {
    ChartWindow window = model.window();
    List<Identifier> measures = model.workspace().spec().measures();
    int whole = window.total();
    List<LibraryCase> cases = new ArrayList<>();
    cases.add(new LibraryCase("whole window (Home)", () -> {
      window.whole();
      window.zoom(0.8);
    }, r -> window.whole(), false));
    for (int days : new int[] {61, 14, 4}) {
      int hours = days * 24;
      cases.add(new LibraryCase(String.format("%d days, ×%.0f (wheel out)", days, (double) whole / hours), () -> {
        view(window, hours, anchor);
        window.zoom(0.8, anchor);
      }, r -> window.zoom(1.25, anchor), false));
    }
    cases.add(new LibraryCase("B ± a day (chosen)", () -> {
      window.choose(Choice.AROUND_B);
      window.zoom(0.8);
    }, r -> window.choose(Choice.AROUND_B), false));
    cases.add(new LibraryCase("overlap since B (chosen)", () -> {
      window.choose(Choice.OVERLAP);
      window.zoom(0.8);
    }, r -> window.choose(Choice.OVERLAP), false));
    cases.add(new LibraryCase("12 hours (− key)", () -> {
      view(window, 12, anchor);
      window.zoom(2 / 3.0, anchor);
    }, r -> window.zoom(1.5, anchor), false));
    cases.add(new LibraryCase("pan at 12 hours (3 hours)", () -> view(window, 12, anchor),
        r -> window.pan(r / 2 % 2 == 0 ? 3 : -3), false));
    cases.add(new LibraryCase("pan at 3 hours (1 hour)", () -> view(window, ChartWindow.MIN_HOURS, anchor),
        r -> window.panTo(window.span().from() + (r / 2 % 2 == 0 ? 1 : -1)), false));
    cases.add(new LibraryCase("measure switch (whole window)", window::whole,
        r -> model.chooseMeasure(measures.get(r % measures.size())), true));
    cases.add(new LibraryCase("floor: nothing moves (CSS, layout, snapshot)", () -> view(window, 14 * 24, anchor),
        r -> {}, false));
    return cases;
  }

  /** Records the hours each case's step moves between on the canvas, for the library to be moved alike. */
  static void record(List<LibraryCase> cases, ChartWindow window) {
    for (LibraryCase c : cases) {
      for (int r = 0; r < LibraryCase.CYCLE; r++) {
        c.before().run();
        c.from()[r] = window.span();
        c.step().accept(r);
        c.to()[r] = window.span();
      }
    }
  }

  /** Shows {@code hours} hours about {@code anchor}, as a range Shift+dragged on a chart would. */
  static void view(ChartWindow window, int hours, double anchor) {
    int from = (int) Math.round(anchor - hours / 2.0);
    window.pick(from, from + hours - 1);
  }
}
