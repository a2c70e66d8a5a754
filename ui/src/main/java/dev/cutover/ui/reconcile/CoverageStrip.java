package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourClass;
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
 * Which writer owns each hour of v2 (the backfill before the boundary, the live writer from it on),
 * with gaps and duplicates marked, and the boundary drawn as a line.
 */
public final class CoverageStrip extends HourCanvas {

  private final Map<HourPartition, HourClass> classes = new HashMap<>();
  private final Map<HourPartition, List<Reconciliation.CoverageIssue>> issues = new HashMap<>();

  CoverageStrip() {
    super("coverage-strip");
    setMinHeight(34);
    setPrefHeight(34);
  }

  void load(Reconciliation r) {
    classes.clear();
    issues.clear();
    if (r != null) {
      r.classes().forEach(c -> classes.put(c.hour(), c));
      issues.putAll(r.coverage().stream().collect(Collectors.groupingBy(Reconciliation.CoverageIssue::hour)));
    }
  }

  @Override
  void draw(GraphicsContext g, double width, double height) {
    double w = Math.max(1, columnWidth() - (columnWidth() >= 4 ? 1 : 0));
    double top = 4;
    double band = height - 8;
    for (int i = 0; i < count(); i++) {
      HourClass c = classes.get(hour(i));
      if (c == null) {
        continue;
      }
      g.setFill(c.owner() == Owner.BACKFILL ? palette.backfillOwner() : palette.liveOwner());
      g.fillRect(x(i), top + band * 0.25, w, band * 0.5);
      if (c.status() == HourStatus.GAP || c.status() == HourStatus.DUPLICATE) {
        g.setFill(c.status() == HourStatus.GAP ? palette.gap() : palette.duplicate());
        g.fillRect(x(i), top, Math.max(2, w), band);
      }
    }
    int b = (int) ((report.boundary().epochSecond() - report.window().from().epochSecond()) / 3600);
    if (b >= 0 && b <= count()) {
      g.setStroke(palette.boundary());
      g.setLineWidth(2);
      g.strokeLine(x(b), 0, x(b), height);
    }
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    g.fillText("owner", 4, height / 2 + 4);
  }

  @Override
  String describe(int index) {
    HourPartition h = hour(index);
    HourClass c = classes.get(h);
    String owner = c == null ? "?" : c.owner() == Owner.BACKFILL ? "backfill" : "live writer";
    String problems = issues.getOrDefault(h, List.of()).stream().map(i -> i.kind() + ": " + i.detail())
        .collect(Collectors.joining("; "));
    return h + " UTC, written by the " + owner + (problems.isEmpty() ? ", covered once" : ", " + problems)
        + (c == null ? "" : " (" + c.status().name().toLowerCase(Locale.ROOT) + ")");
  }
}
