package dev.cutover.ui.plan;

import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the preflight step shows, on the FX thread: every check of the plan with its status, finding
 * and fix, and the dependents of the target the operator has reviewed and acknowledged. {@link
 * PreflightController} runs the checks and writes here.
 */
public final class PreflightModel {

  private final Workspace workspace;
  private final Activity activity;
  private final ObservableList<Check> checks = FXCollections.observableArrayList();
  private final Map<String, BooleanProperty> acknowledged = new LinkedHashMap<>();
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

  /** The dependents the operator has acknowledged so far, for the next run. */
  List<String> acknowledgedDependents() {
    return acknowledged.entrySet().stream().filter(e -> e.getValue().get()).map(Map.Entry::getKey).toList();
  }

  /** The checks of a preflight just run: the backfill may start from it if it passed. */
  void checked(Preflighted checked) {
    PreflightReport report = checked.report();
    workspace.preflightProperty().set(checked);
    checks.setAll(report.checks());
    report.dependents().forEach(d -> acknowledged.computeIfAbsent(d.name(),
        n -> new SimpleBooleanProperty(d.acknowledged())));
    dependents.setAll(report.dependents());
    summary.set(summary(report));
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

  /** Whether the operator has acknowledged this dependent; takes effect on the next run. */
  public BooleanProperty acknowledged(String dependent) {
    return acknowledged.computeIfAbsent(dependent, n -> new SimpleBooleanProperty());
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
