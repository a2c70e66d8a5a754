package dev.cutover.ui.plan;

import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableMap;

/**
 * What the preflight step shows, on the FX thread: every check of the plan with its status, finding
 * and fix, and the dependents of the target and of v1 with the reason the operator gave for each one
 * acknowledged. {@link PreflightController} runs the checks and asks the reasons, and writes here.
 */
public final class PreflightModel {

  private final Workspace workspace;
  private final Activity activity;
  private final ObservableList<Check> checks = FXCollections.observableArrayList();
  private final ObservableMap<String, String> reasons = FXCollections.observableMap(new LinkedHashMap<>());
  private final ObservableMap<String, String> shownReasons = FXCollections.unmodifiableObservableMap(reasons);
  private final ObservableList<Dependent> dependents = FXCollections.observableArrayList();
  private final StringProperty summary = new SimpleStringProperty("Make a plan, then run the preflight.");

  PreflightModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    workspace.planProperty().addListener((o, was, is) -> {
      checks.clear();
      summary.set(is == null ? "Make a plan, then run the preflight." : "Run the preflight to check this plan.");
    });
    // Once a backfill started from the cleared plan, "the backfill may start" is no longer what is true.
    workspace.drivingProperty().addListener((o, was, is) -> {
      if (is && workspace.preflightProperty().get() != null && workspace.preflightProperty().get().passed()) {
        summary.set(summary(workspace.preflightProperty().get().report()).replace("The backfill may start.",
            "The backfill started from this plan at " + Formats.clock(java.time.Instant.now()) + "; run the "
                + "preflight again before another."));
      }
    });
  }

  /**
   * Forgets a preflight made before the console reconnected: it checked the server as it was, and the
   * backfill starts only from a preflight of the server as it is. The checks stay on screen as they were.
   */
  void expire() {
    var last = workspace.preflightProperty().get();
    if (last == null) {
      return;
    }
    workspace.preflightProperty().set(null);
    summary.set("This preflight ran before the connection to the server was lost; run it again: the backfill "
        + "starts only from a preflight of the server as it is now.");
  }

  /** The dependents the operator has acknowledged so far, each with its reason, for the next run. */
  List<AcknowledgedDependent> acknowledgedDependents() {
    return reasons.entrySet().stream().map(e -> new AcknowledgedDependent(e.getKey(), e.getValue())).toList();
  }

  /**
   * The checks of a preflight just run: the backfill may start from it if it passed, unless an
   * acknowledgement it ran with was taken back meanwhile.
   */
  void checked(Preflighted checked) {
    PreflightReport report = checked.report();
    boolean takenBack = report.dependents().stream()
        .anyMatch(d -> d.acknowledged() && !d.reason().equals(Optional.ofNullable(reasons.get(d.name()))));
    workspace.preflightProperty().set(takenBack ? null : checked);
    // What must be fixed first: failed checks, then warnings, then passed ones, each in the preflight's own order.
    checks.setAll(report.checks().stream().sorted(java.util.Comparator.comparingInt(c -> switch (c.status()) {
      case FAIL -> 0;
      case WARN -> 1;
      case PASS -> 2;
    })).toList());
    dependents.setAll(report.dependents());
    summary.set(takenBack ? "An acknowledgement this preflight ran with was taken back meanwhile; run it again: the "
        + "backfill starts only from a preflight with the acknowledgements as they are now." : summary(report));
  }

  /** Acknowledges a dependent with the operator's reason; takes effect on the next run. */
  void acknowledge(AcknowledgedDependent acknowledged) {
    reasons.put(acknowledged.name(), acknowledged.reason());
  }

  /**
   * Takes back the acknowledgement of {@code dependent}. A preflight that passed with it no longer clears
   * the backfill: the run would write to the audit trail a reason the operator withdrew.
   */
  void takeBack(String dependent) {
    if (reasons.remove(dependent) == null) {
      return;
    }
    Preflighted last = workspace.preflightProperty().get();
    if (last != null && last.report().dependents().stream().anyMatch(d -> d.name().equals(dependent)
        && d.acknowledged())) {
      workspace.preflightProperty().set(null);
      summary.set("The acknowledgement of " + dependent + " was taken back; run the preflight again: the backfill "
          + "starts only from a preflight with the acknowledgements as they are now.");
    }
  }

  static String summary(PreflightReport report) {
    long pass = count(report, Status.PASS);
    long warn = count(report, Status.WARN);
    long fail = count(report, Status.FAIL);
    return report.checks().size() + " checks: " + pass + " passed, " + warn + (warn == 1 ? " warning, " : " warnings, ")
        + fail + " failed. " + (report.passed() ? "The backfill may start." : "Fix the failed checks before the backfill.");
  }

  private static long count(PreflightReport r, Status s) {
    return r.checks().stream().filter(c -> c.status() == s).count();
  }

  /**
   * The reason the operator gave for each dependent acknowledged so far, by {@code db.table}; a dependent
   * without one is not acknowledged. Read only: {@link PreflightController} asks and takes back.
   */
  public ObservableMap<String, String> reasons() {
    return shownReasons;
  }

  public ObservableList<Check> checks() {
    return checks;
  }

  public ObservableList<Dependent> dependents() {
    return dependents;
  }

  public ReadOnlyStringProperty summaryProperty() {
    return summary;
  }

  public Activity activity() {
    return activity;
  }

  Workspace workspace() {
    return workspace;
  }
}
