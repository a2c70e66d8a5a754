package dev.cutover.ui.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.ui.reconcile.ChartWindow.Choice;
import dev.cutover.ui.reconcile.ChartWindow.Span;
import org.junit.jupiter.api.Test;

/** The hours the reconcile screen's charts show: opening on the overlap, presets, zoom, pan and picks. */
class ChartWindowTest {

  private static final HourPartition FIRST = HourPartition.parse("first", "2026-06-01T00:00");

  /** A report of {@code hours} hours whose boundary is {@code boundary} hours after the first. */
  private static Reconciliation report(int hours, int boundary) {
    return Reports.of(FIRST, hours, FIRST.plusHours(boundary), -1, -1);
  }

  @Test
  void opensOnTheOverlapWhenThereIsOne() {
    ChartWindow w = new ChartWindow();
    w.follow(report(4392, 4392 - 30));
    assertTrue(w.hasOverlap());
    assertEquals(Choice.OVERLAP, w.choiceProperty().get());
    assertEquals(new Span(4362, 4392), w.span());
    assertEquals(FIRST.plusHours(4362), w.range().from());

    ChartWindow none = new ChartWindow();
    none.follow(report(100, 100));
    assertFalse(none.hasOverlap());
    assertEquals(Choice.WHOLE, none.choiceProperty().get());
    assertEquals(new Span(0, 100), none.span());
  }

  @Test
  void presetsShowTheirHours() {
    ChartWindow w = new ChartWindow();
    w.follow(report(200, 170));
    w.choose(Choice.AROUND_B);
    assertEquals(new Span(146, 194), w.span());
    w.choose(Choice.WHOLE);
    assertEquals(new Span(0, 200), w.span());
    w.choose(Choice.OVERLAP);
    assertEquals(new Span(170, 200), w.span());
    // B ± a day near the window's end is cut at its end.
    w.follow(report(180, 170));
    w.choose(Choice.AROUND_B);
    assertEquals(new Span(146, 180), w.span());
  }

  @Test
  void zoomKeepsTheAnchorAndStaysInTheWindow() {
    ChartWindow w = new ChartWindow();
    w.follow(report(4392, 4392));
    assertEquals(new Span(0, 4392), w.span());
    w.zoom(0.5, 1000);
    assertEquals(2196, w.span().hours());
    assertTrue(w.span().contains(1000));
    assertEquals(Choice.CHOSEN, w.choiceProperty().get());
    for (int i = 0; i < 100; i++) {
      w.zoom(0.5, 1000);
    }
    assertEquals(ChartWindow.MIN_HOURS, w.span().hours(), "never fewer than the minimum");
    assertTrue(w.span().contains(1000));
    for (int i = 0; i < 100; i++) {
      w.zoom(2, 1000);
    }
    assertEquals(new Span(0, 4392), w.span(), "never more than the window");
    assertEquals(Choice.WHOLE, w.choiceProperty().get(), "the whole window again, by name");
    // Each step moves by at least an hour, even when a factor would round to none.
    w.zoom(0.5);
    int before = w.span().hours();
    w.zoom(1.0001);
    assertEquals(before + 1, w.span().hours());
  }

  @Test
  void panStopsAtTheEdgesAndPicksKeepTheirHours() {
    ChartWindow w = new ChartWindow();
    w.follow(report(500, 470));
    w.pan(-10);
    assertEquals(new Span(460, 490), w.span());
    w.pan(1000);
    assertEquals(new Span(470, 500), w.span());
    assertEquals(Choice.OVERLAP, w.choiceProperty().get(), "back on the overlap, by name");
    w.panTo(-50);
    assertEquals(new Span(0, 30), w.span());
    w.pick(120, 100);
    assertEquals(new Span(100, 121), w.span());
    assertEquals(Choice.CHOSEN, w.choiceProperty().get());
    w.pick(7, 7);
    assertEquals(ChartWindow.MIN_HOURS, w.span().hours(), "a pick of one hour shows the minimum around it");
    assertTrue(w.span().contains(7));
    w.reveal(300);
    assertEquals(300, w.span().to() - 1);
  }

  @Test
  void aNewReportKeepsTheOperatorsChoice() {
    ChartWindow w = new ChartWindow();
    w.follow(report(100, 70));
    w.pick(10, 19);
    // The next report starts two hours later: the same hours stay in view.
    w.follow(Reports.of(FIRST.plusHours(2), 100, FIRST.plusHours(72), -1, -1));
    assertEquals(new Span(8, 18), w.span());
    assertEquals(Choice.CHOSEN, w.choiceProperty().get());
    w.choose(Choice.WHOLE);
    w.follow(report(120, 90));
    assertEquals(new Span(0, 120), w.span(), "a preset chosen by the operator stays chosen");
    // Untouched, the screen opens each report on its overlap.
    ChartWindow fresh = new ChartWindow();
    fresh.follow(report(100, 100));
    fresh.follow(report(130, 100));
    assertEquals(new Span(100, 130), fresh.span());
  }
}
