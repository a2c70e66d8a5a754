package dev.cutover.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * One case of the chart refresh benchmark: a step onto a view of the Reconcile screen's charts.
 * {@code before} sets the view next to it (not timed); {@code step} is timed, given the round's number.
 * Each sample holds milliseconds of the step, of CSS and layout and of the render, then the hours in
 * view, the pixels per hour, the garbage collections that ran and the CPU milliseconds of the FX and
 * render threads; {@code card} holds the samples that ended with a snapshot of the charts card,
 * {@code screen} those that ended with one of the whole screen.
 */
record ChartCase(String name, Runnable before, IntConsumer step, List<double[]> card, List<double[]> screen) {

  ChartCase(String name, Runnable before, IntConsumer step) {
    this(name, before, step, new ArrayList<>(), new ArrayList<>());
  }

  /** Every sample: the step, CSS and layout are the same whichever snapshot follows. */
  List<double[]> all() {
    List<double[]> all = new ArrayList<>(card);
    all.addAll(screen);
    return all;
  }
}
