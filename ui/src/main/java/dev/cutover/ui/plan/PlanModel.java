package dev.cutover.ui.plan;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService.AbandonRequest;
import dev.cutover.ui.dialogs.DialogService.Abandonment;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
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
 * The plan screen: the reprocessing window and the live edge (refreshed every few seconds), the
 * chosen range and boundary, and the plan the engine makes of them; with the preflight and sample
 * steps that check the plan before anything is written. Once the target's repair has pinned its
 * boundary, the boundary is that one and cannot be changed here, short of abandoning the repair.
 */
public final class PlanModel implements ScreenController {

  static final Duration LIVE_REFRESH = Duration.ofSeconds(5);

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
  private TableSpec loadedFor;
  private TaskExecutor.Handle poll;
  private boolean polling;

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

  @Override
  public void shown() {
    if (workspace.spec() != loadedFor) {
      loadWindow();
    }
    poll = workspace.executor().every(LIVE_REFRESH, () -> {
      if (!workspace.lost().get()) {
        refreshLive();
      }
    });
  }

  /**
   * After a reconnect: reads the reprocessing window, the live edge and the repair again, keeping the
   * range the operator chose; a preflight made before no longer clears the backfill (see {@link
   * PreflightModel#expire()}).
   */
  @Override
  public void reread() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    preflight.expire();
    if (spec == null || engine == null || loadedFor != spec) {
      return;
    }
    polling = false;
    activity.run("read the reprocessing window and the live edge again", p -> new Window(engine.plans().reprocessingStart(spec),
        engine.plans().live(spec), openRepair(engine, spec)), w -> {
          live.set(w.live());
          repair.set(w.repair().orElse(null));
          windowStart.set(w.start().orElse(null));
          liveError.set("");
        });
  }

  @Override
  public javafx.beans.value.ObservableBooleanValue reading() {
    return activity.runningProperty();
  }

  @Override
  public void hidden() {
    if (poll != null) {
      poll.cancel();
      poll = null;
    }
  }

  /** Reads the reprocessing window and the live edge, and proposes the default range and boundary. */
  public void loadWindow() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    loadedFor = spec;
    activity.run("read the reprocessing window and the live edge", p -> {
      Optional<HourPartition> start = engine.plans().reprocessingStart(spec);
      return new Window(start, engine.plans().live(spec), openRepair(engine, spec));
    }, w -> {
      live.set(w.live());
      repair.set(w.repair().orElse(null));
      windowStart.set(w.start().orElse(null));
      if (w.start().isEmpty()) {
        activity.fail("The sources of " + spec.name() + " hold no rows, so there is nothing to recompute.");
        return;
      }
      if (w.live().liveEdge().isEmpty()) {
        activity.fail("The live table " + spec.liveTable() + " holds no rows, so there is no live edge to place the "
            + "boundary behind; start the live writer first.");
        return;
      }
      resetBoundary();
      from.set(w.start().get());
      to.set(boundaryInForce());
    });
  }

  private record Window(Optional<HourPartition> start, LiveStatus live, Optional<Repair> repair) {}

  private record Live(LiveStatus live, Optional<Repair> repair) {}

  /** The target's repair under way, ended ones left out; one cheap read of its state record. */
  private static Optional<Repair> openRepair(Engine engine, TableSpec spec) {
    return engine.repairs().current(spec).filter(r -> !r.phase().ended());
  }

  private static Optional<HourPartition> pinned(Repair r) {
    return r == null ? Optional.empty() : r.boundary();
  }

  /** Reads the live edge again; at most one read at a time. */
  public void refreshLive() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (polling || spec == null || engine == null) {
      return;
    }
    polling = true;
    workspace.executor().submit(p -> new Live(engine.plans().live(spec), openRepair(engine, spec)), (message, fraction) -> {},
        read -> {
          polling = false;
          liveError.set("");
          live.set(read.live());
          repair.set(read.repair().orElse(null));
        }, failure -> {
      polling = false;
      liveError.set(Errors.sentence(failure, "read the live edge"));
    });
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

  private Optional<HourPartition> parsedBoundary() {
    try {
      return Optional.of(HourPartition.parse("boundary", boundary.get()));
    } catch (CutoverException e) {
      return Optional.empty();
    }
  }

  /**
   * Asks the engine for a plan of the chosen range and boundary; bad input is refused with its
   * sentence. While the repair has pinned its boundary, the engine plans with that one (whatever the
   * field says), so that a repair pinned meanwhile by another process is kept too.
   */
  public void makePlan() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    HourPartition b;
    try {
      b = HourPartition.parse("boundary", boundary.get());
    } catch (CutoverException e) {
      activity.fail(e.getMessage());
      return;
    }
    Optional<HourPartition> chosen = pinned(repair.get()).isPresent() ? Optional.empty() : Optional.of(b);
    Optional<HourPartition> f = Optional.ofNullable(from.get());
    Optional<HourPartition> t = Optional.ofNullable(to.get()).map(x -> b.isBefore(x) ? b : x);
    workspace.planProperty().set(null);
    activity.run("plan the backfill", p -> engine.plans().plan(spec, f, t, chosen, engine.plans().defaults(spec)), plan -> {
      workspace.planProperty().set(plan);
      boundary.set(plan.boundary().toString());
      from.set(plan.range().from());
      to.set(plan.range().to());
      sample.suggest(plan);
    });
  }

  /**
   * Gives up the repair once the operator typed the target table's name and wrote a reason: its
   * boundary and ledger stop counting, the plan made with its boundary is dropped, and the
   * boundary field offers the safe default again.
   */
  public void abandon() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    Repair r = repair.get();
    if (r == null) {
      activity.fail("No repair of " + spec.database() + "." + spec.targetTable() + " is under way; there is nothing "
          + "to abandon.");
      return;
    }
    Optional<Abandonment> answer = workspace.dialogs().confirmAbandon(new AbandonRequest(spec.database() + "."
        + spec.targetTable(), spec.targetTable().name(), r.id(), r.phase().words(), r.boundary(), Safety.ABANDON));
    if (answer.isEmpty()) {
      return;
    }
    activity.run("abandon repair " + r.id(), p -> {
      engine.repairs().abandon(spec, answer.get().typedName(), answer.get().reason());
      return new Live(engine.plans().live(spec), openRepair(engine, spec));
    }, read -> {
      workspace.planProperty().set(null);
      live.set(read.live());
      repair.set(read.repair().orElse(null));
      resetBoundary();
      // A range that ended at the old boundary ends at the new one.
      if (r.boundary().isPresent() && r.boundary().get().equals(to.get())) {
        to.set(boundaryInForce());
      }
      workspace.repair().refresh();
    }, failure -> workspace.repair().refresh());
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

  public ReadOnlyStringProperty liveErrorProperty() {
    return liveError;
  }

  public ReadOnlyObjectProperty<Plan> planProperty() {
    return workspace.planProperty();
  }

  public TableSpec spec() {
    return workspace.spec();
  }
}
