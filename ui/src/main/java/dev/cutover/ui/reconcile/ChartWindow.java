package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Reconciliation;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The hours the reconcile screen's charts show: a part of the report's window that the operator
 * chooses (the whole window, the overlap since B, B ± a day, or a range dragged on a chart), then
 * zooms and pans. It is a matter of the screen over the hours the report already holds: nothing here
 * reads the server. Hours are counted as indexes into the report's window, {@code 0} being its first.
 *
 * <pre>{@code
 * window.follow(report);             // opens on the overlap when there is one
 * window.zoom(0.5, window.span().from() + 6);
 * window.choose(Choice.WHOLE);       // Home
 * }</pre>
 */
public final class ChartWindow {

  /** The fewest hours the charts show when zoomed in all the way. */
  public static final int MIN_HOURS = 3;

  /** The ways the operator picks the hours in view. */
  public enum Choice {
    WHOLE("Whole"),
    OVERLAP("Overlap since B"),
    AROUND_B("B ± a day"),
    CHOSEN("Picked on the chart");

    private final String words;

    Choice(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }
  }

  /** Hours {@code [from, to)} of the report's window, as indexes. */
  public record Span(int from, int to) {

    public int hours() {
      return to - from;
    }

    public boolean contains(int index) {
      return index >= from && index < to;
    }
  }

  private final ObjectProperty<Span> span = new SimpleObjectProperty<>(new Span(0, 0));
  private final ObjectProperty<Choice> choice = new SimpleObjectProperty<>(Choice.WHOLE);
  private HourPartition first;
  private int total;
  private int boundary;
  /** Whether the choice was the screen's default rather than the operator's: a new report may change it. */
  private boolean defaulted = true;

  /**
   * Takes a new report's window. The first report, and every report while the operator has not chosen,
   * opens on the overlap since B when there is one, on the whole window otherwise; a choice the operator
   * made is applied to the new window, and a range of their own keeps the same hours where it can.
   */
  public void follow(Reconciliation r) {
    HourPartition wasFirst = first;
    Span was = span.get();
    if (r == null) {
      first = null;
      total = 0;
      boundary = 0;
      span.set(new Span(0, 0));
      return;
    }
    first = r.window().from();
    total = (int) r.window().hours();
    boundary = (int) ((r.boundary().epochSecond() - first.epochSecond()) / 3600);
    if (defaulted || wasFirst == null) {
      choice.set(hasOverlap() ? Choice.OVERLAP : Choice.WHOLE);
      defaulted = true;
      span.set(preset(choice.get()));
    } else if (choice.get() == Choice.CHOSEN) {
      int shift = (int) ((wasFirst.epochSecond() - first.epochSecond()) / 3600);
      set(was.from() + shift, was.to() + shift, Choice.CHOSEN);
    } else {
      Choice c = choice.get() == Choice.OVERLAP && !hasOverlap() ? Choice.WHOLE : choice.get();
      choice.set(c);
      span.set(preset(c));
    }
  }

  /** Whether the report holds hours from B on: both live writers wrote them. */
  public boolean hasOverlap() {
    return total > 0 && boundary > 0 && boundary < total;
  }

  /** Shows the hours of a preset (the whole window, the overlap, B ± a day); {@link Choice#CHOSEN} keeps the view. */
  public void choose(Choice c) {
    if (total == 0 || c == null) {
      return;
    }
    defaulted = false;
    if (c == Choice.CHOSEN) {
      choice.set(Choice.CHOSEN);
      return;
    }
    Choice shown = c == Choice.OVERLAP && !hasOverlap() ? Choice.WHOLE : c;
    choice.set(shown);
    span.set(preset(shown));
  }

  /** The whole window: Home. */
  public void whole() {
    choose(Choice.WHOLE);
  }

  /**
   * Zooms by {@code factor} (below 1 shows fewer hours) about the hour at {@code anchor} (a fractional
   * index), which stays where it is on the screen. Each step changes the view by at least an hour.
   */
  public void zoom(double factor, double anchor) {
    Span s = span.get();
    if (total == 0 || s.hours() == 0) {
      return;
    }
    int hours = (int) Math.round(s.hours() * factor);
    if (factor < 1) {
      hours = Math.min(hours, s.hours() - 1);
    } else if (factor > 1) {
      hours = Math.max(hours, s.hours() + 1);
    }
    hours = Math.max(Math.min(MIN_HOURS, total), Math.min(total, hours));
    double at = Math.max(s.from(), Math.min(s.to(), anchor));
    double share = (at - s.from()) / s.hours();
    int from = (int) Math.round(at - share * hours);
    set(from, from + hours, null);
  }

  /** Zooms about the middle of the view: the keyboard's + and −. */
  public void zoom(double factor) {
    Span s = span.get();
    zoom(factor, s.from() + s.hours() / 2.0);
  }

  /** Moves the view by {@code hours} (later when positive), keeping its width. */
  public void pan(int hours) {
    Span s = span.get();
    set(s.from() + hours, s.to() + hours, null);
  }

  /** Moves the view so that it starts at {@code from}, keeping its width: a drag. */
  public void panTo(int from) {
    Span s = span.get();
    set(from, from + s.hours(), null);
  }

  /** Shows the hours from {@code a} to {@code b} (both included, in either order): a range dragged on a chart. */
  public void pick(int a, int b) {
    int from = Math.min(a, b);
    int to = Math.max(a, b) + 1;
    if (to - from < MIN_HOURS) {
      int grow = MIN_HOURS - (to - from);
      from -= grow / 2;
      to += grow - grow / 2;
    }
    defaulted = false;
    set(from, to, Choice.CHOSEN);
  }

  /** Pans the least needed so that hour {@code index} is in view. */
  public void reveal(int index) {
    Span s = span.get();
    if (index < s.from()) {
      pan(index - s.from());
    } else if (index >= s.to()) {
      pan(index - s.to() + 1);
    }
  }

  /**
   * Clamps {@code [from, to)} into the window (keeping its width where it fits) and names it: the given
   * choice, or the preset it equals, or a range of the operator's own.
   */
  private void set(int from, int to, Choice named) {
    if (total == 0) {
      return;
    }
    int hours = Math.max(Math.min(MIN_HOURS, total), Math.min(total, to - from));
    int start = Math.max(0, Math.min(total - hours, from));
    Span next = new Span(start, start + hours);
    defaulted = false;
    Choice c = named;
    if (c == null) {
      c = Choice.CHOSEN;
      for (Choice preset : new Choice[] {Choice.OVERLAP, Choice.AROUND_B, Choice.WHOLE}) {
        if ((preset != Choice.OVERLAP || hasOverlap()) && preset(preset).equals(next)) {
          c = preset;
          break;
        }
      }
    }
    choice.set(c);
    span.set(next);
  }

  /** The hours of a preset in the current window. */
  Span preset(Choice c) {
    return switch (c) {
      case WHOLE, CHOSEN -> new Span(0, total);
      case OVERLAP -> hasOverlap() ? new Span(boundary, total) : new Span(0, total);
      case AROUND_B -> {
        int from = Math.max(0, Math.min(total, boundary - 24));
        int to = Math.max(0, Math.min(total, boundary + 24));
        yield to - from >= Math.min(MIN_HOURS, total) ? new Span(from, to) : new Span(0, total);
      }
    };
  }

  public ReadOnlyObjectProperty<Span> spanProperty() {
    return span;
  }

  public Span span() {
    return span.get();
  }

  public ReadOnlyObjectProperty<Choice> choiceProperty() {
    return choice;
  }

  /** The hours in view as a range of hours, or null before a report. */
  public HourRange range() {
    Span s = span.get();
    return first == null || s.hours() == 0 ? null : new HourRange(first.plusHours(s.from()), first.plusHours(s.to()));
  }

  /** The index of an hour in the report's window (outside it: below 0 or from {@link #total()} on). */
  public int indexOf(HourPartition h) {
    return first == null ? -1 : (int) ((h.epochSecond() - first.epochSecond()) / 3600);
  }

  /** How many hours the report's window holds. */
  public int total() {
    return total;
  }

  /** The index of B in the report's window. */
  public int boundary() {
    return boundary;
  }
}
