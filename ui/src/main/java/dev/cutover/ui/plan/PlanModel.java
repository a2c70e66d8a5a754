package dev.cutover.ui.plan;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * What the plan screen shows, on the FX thread: the reprocessing window and the live edge, the
 * chosen range and boundary, the repair under way, and the plan; with the preflight and sample
 * steps that check the plan before anything is written. Once the target's repair has pinned its
 * boundary, the boundary is that one and cannot be changed here, short of abandoning the repair.
 * {@link PlanController} reads the server and writes here.
 */
public final class PlanModel {

  private final Workspace workspace;
  private final Activity activity;
  private final PreflightModel preflight;
  private final SampleModel sample;
  private final ObjectProperty<HourPartition> windowStart = new SimpleObjectProperty<>();
  private final ObjectProperty<LiveStatus> live = new SimpleObjectProperty<>();
  private final ObjectProperty<HourPartition> from = new SimpleObjectProperty<>();
  private final ObjectProperty<HourPartition> to = new SimpleObjectProperty<>();
  private final StringProperty boundary = new SimpleStringProperty("");
  private final StringProperty liveError = new SimpleStringProperty("");
  private final ObjectProperty<Repair> repair = new SimpleObjectProperty<>();

  public PlanModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    this.preflight = new PreflightModel(workspace);
    this.sample = new SampleModel(workspace);
    // A boundary pinned (or released) elsewhere shows here at once: the field follows the repair.
    repair.addListener((o, was, is) -> {
      Optional<HourPartition> before = pinned(was);
      if (!before.equals(pinned(is))) {
        resetBoundary();
      }
    });
  }

  static Optional<HourPartition> pinned(Repair r) {
    return r == null ? Optional.empty() : r.boundary();
  }

  /** The live edge minus the spec's safety margin: the latest boundary the engine accepts. */
  public HourPartition defaultBoundary() {
    LiveStatus l = live.get();
    if (l == null || l.liveEdge().isEmpty()) {
      return null;
    }
    return l.liveEdge().get().plusHours(-workspace.spec().safetyMargin().toHours());
  }

  /** The boundary the repair pinned, or the safe default while none is pinned. */
  public HourPartition boundaryInForce() {
    return pinned(repair.get()).orElseGet(this::defaultBoundary);
  }

  /** The boundary in force: the pinned one, or the safe default. */
  public void resetBoundary() {
    HourPartition b = boundaryInForce();
    if (b != null) {
      boundary.set(b.toString());
      if (to.get() != null && b.isBefore(to.get())) {
        to.set(b);
      }
    }
  }

  /** Sets the range from the slider: hours counted from the window's start, {@code [low, high)}. */
  public void setRangeHours(long low, long high) {
    HourPartition start = windowStart.get();
    if (start == null || high <= low) {
      return;
    }
    from.set(start.plusHours(low));
    to.set(start.plusHours(high));
  }

  /** The first day of the range: its first hour, or the window's start if later. */
  public void setFromDate(LocalDate date) {
    if (date == null || windowStart.get() == null) {
      return;
    }
    HourPartition h = HourPartition.of(date.atStartOfDay().toInstant(ZoneOffset.UTC));
    if (h.isBefore(windowStart.get())) {
      h = windowStart.get();
    }
    if (to.get() != null && !h.isBefore(to.get())) {
      return;
    }
    from.set(h);
  }

  /** The last day of the range, included: the range ends at the next midnight, or at the boundary if earlier. */
  public void setToDate(LocalDate date) {
    if (date == null) {
      return;
    }
    HourPartition end = HourPartition.of(date.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    HourPartition limit = parsedBoundary().orElse(defaultBoundary());
    if (limit != null && limit.isBefore(end)) {
      end = limit;
    }
    if (from.get() != null && !from.get().isBefore(end)) {
      return;
    }
    to.set(end);
  }

  Optional<HourPartition> parsedBoundary() {
    try {
      return Optional.of(HourPartition.parse("boundary", boundary.get()));
    } catch (CutoverException e) {
      return Optional.empty();
    }
  }

  public Activity activity() {
    return activity;
  }

  public PreflightModel preflight() {
    return preflight;
  }

  public SampleModel sample() {
    return sample;
  }

  public ReadOnlyObjectProperty<HourPartition> windowStartProperty() {
    return windowStart;
  }

  public ReadOnlyObjectProperty<LiveStatus> liveProperty() {
    return live;
  }

  public ObjectProperty<HourPartition> fromProperty() {
    return from;
  }

  public ObjectProperty<HourPartition> toProperty() {
    return to;
  }

  public StringProperty boundaryProperty() {
    return boundary;
  }

  /** The target's repair under way, or null before its first backfill and after it ended. */
  public ReadOnlyObjectProperty<Repair> repairProperty() {
    return repair;
  }

  /** The window's start, the live edge, the repair and the last failure to read them: written by the controller. */
  ObjectProperty<HourPartition> windowStart() {
    return windowStart;
  }

  ObjectProperty<LiveStatus> live() {
    return live;
  }

  ObjectProperty<Repair> repair() {
    return repair;
  }

  StringProperty liveError() {
    return liveError;
  }

  public ReadOnlyStringProperty liveErrorProperty() {
    return liveError;
  }

  public ReadOnlyObjectProperty<Plan> planProperty() {
    return workspace.planProperty();
  }

  public TableSpec spec() {
    return workspace.spec();
  }

  public Workspace workspace() {
    return workspace;
  }
}
