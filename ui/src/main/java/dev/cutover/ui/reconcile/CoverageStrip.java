package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.Reconciliation.Owner;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.text.Font;

/**
 * Which writer owns each hour of v2 in view (the backfill before the boundary, the live writer from
 * it on), drawn as runs of one colour; gaps and duplicates on top, at least 3 pixels wide; the
 * boundary as a line.
 */
public final class CoverageStrip extends HourCanvas {

  private final Map<HourPartition, List<Reconciliation.CoverageIssue>> issues = new HashMap<>();

  CoverageStrip() {
    super("coverage-strip");
    setMinHeight(26);
    setPrefHeight(30);
  }

  @Override
  void report(Reconciliation r, HourClasses c) {
    super.report(r, c);
    issues.clear();
    if (r != null) {
      issues.putAll(r.coverage().stream().collect(Collectors.groupingBy(Reconciliation.CoverageIssue::hour)));
    }
  }

  @Override
  boolean shadesOverlap() {
    return false;
  }

  @Override
  void draw(GraphicsContext g, double width, double height) {
    double top = 4;
    double band = height - 8;
    int from = first();
    int to = last();
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    g.fillText("owner", 4, height / 2 + 4);
    clipToPlot(g);
    double gap = columnWidth() >= 4 ? 1 : 0;
    // Runs of hours with one owner: one rectangle each, however many hours are in view.
    int start = from;
    while (start < to) {
      Owner owner = classes.owner(start);
      int end = start + 1;
      while (end < to && classes.owner(end) == owner && gap == 0) {
        end++;
      }
      if (owner != null) {
        g.setFill(switch (owner) {
          case BACKFILL -> palette.backfillOwner();
          case LIVE -> palette.liveOwner();
          case CARRIED -> palette.identical();
        });
        g.fillRect(x(start), top + band * 0.25, Math.max(1, x(end) - x(start) - gap), band * 0.5);
      }
      start = end;
    }
    for (int i : classes.marked()) {
      HourStatus s = classes.status(i);
      if (i >= from && i < to && (s == HourStatus.GAP || s == HourStatus.DUPLICATE)) {
        mark(g, i, top, top + band, s == HourStatus.GAP ? palette.gap() : palette.duplicate());
      }
    }
    g.restore();
  }

  @Override
  String describe(int index) {
    HourPartition h = hour(index);
    Owner o = classes.owner(index);
    String owner = o == null ? "?" : o == Owner.CARRIED ? "backfill, carried from v1" : o.words();
    String problems = issues.getOrDefault(h, List.of()).stream().map(i -> i.kind() + ": " + i.detail())
        .collect(Collectors.joining("; "));
    return h + " UTC, written by the " + owner + (problems.isEmpty() ? ", covered once" : ", " + problems)
        + (classes.classified(index) ? " (" + classes.status(index).name().toLowerCase(Locale.ROOT) + ")" : "");
  }
}
