package dev.cutover.bench;

import dev.cutover.ui.reconcile.ChartWindow.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * One case of section 28: a step onto a view of the Reconcile screen's charts, on the console's own canvas
 * and in the chart library. On the canvas, {@code before} sets the view next to it (not timed) and
 * {@code step} is timed, given the round's number, as in section 6. The library is shown the hours
 * {@code from} and timed onto the hours {@code to} that the canvas's step moved between in a round of the
 * same number modulo 4 (the steps that pan alternate by two rounds); or, for a {@code measure} case, shown
 * the measure that the canvas's step picks in that round. Each sample holds milliseconds of the step, of
 * CSS and layout (and the library's pulse listeners, where it draws), and of the render, then the layout
 * passes it took and the garbage collections that ran meanwhile.
 */
record LibraryCase(String name, Runnable before, IntConsumer step, Span[] from, Span[] to, boolean measure,
    List<double[]> own, List<double[]> library) {

  /** Rounds after which the steps repeat: the views of a case are recorded for this many round numbers. */
  static final int CYCLE = 4;

  LibraryCase(String name, Runnable before, IntConsumer step, boolean measure) {
    this(name, before, step, new Span[CYCLE], new Span[CYCLE], measure, new ArrayList<>(), new ArrayList<>());
  }

  /** Milliseconds from the step to the pixels, per sample. */
  static List<Double> total(List<double[]> samples) {
    return samples.stream().map(s -> s[0] + s[1] + s[2]).toList();
  }
}
