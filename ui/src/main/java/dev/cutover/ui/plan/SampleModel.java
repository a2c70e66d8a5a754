package dev.cutover.ui.plan;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the sample step shows, on the FX thread: the hours to try, and for a few hours computed with
 * the corrected transform into a scratch table and compared with v1, before the full run, each
 * hour's totals and each differing key, expected (explained by a rule of the spec) or not. {@link
 * SampleController} computes and compares them and writes here.
 */
public final class SampleModel {

  private final Workspace workspace;
  private final Activity activity;
  private final StringProperty hours = new SimpleStringProperty("");
  private final StringProperty summary = new SimpleStringProperty("Pick a few hours and validate them.");
  private final ObservableList<Diff.HourDiff> hourRows = FXCollections.observableArrayList();
  private final ObservableList<Diff.KeyDiff> keyRows = FXCollections.observableArrayList();

  SampleModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    workspace.specProperty().addListener((o, was, is) -> {
      hourRows.clear();
      keyRows.clear();
      hours.set("");
      summary.set("Pick a few hours and validate them.");
    });
  }

  /** Proposes three hours spread over the plan's range: near its start, its middle and its end. */
  public void suggest(Plan plan) {
    long n = plan.range().hours();
    List<HourPartition> picks = new ArrayList<>();
    for (long offset : new long[] {Math.min(1, n - 1), n / 2, Math.max(0, n - 2)}) {
      HourPartition h = plan.range().from().plusHours(offset);
      if (!picks.contains(h)) {
        picks.add(h);
      }
    }
    hours.set(String.join(", ", picks.stream().map(HourPartition::toString).toList()));
  }

  /** The hours compared and their differing keys. */
  void compared(Diff diff) {
    hourRows.setAll(diff.hours());
    keyRows.setAll(diff.keys());
    summary.set(summary(diff));
  }

  static List<HourPartition> parse(String text) {
    List<HourPartition> out = new ArrayList<>();
    for (String part : text == null ? new String[0] : text.split("[,;\\n]")) {
      if (!part.isBlank()) {
        HourPartition h = HourPartition.parse("sample hour", part.strip());
        if (!out.contains(h)) {
          out.add(h);
        }
      }
    }
    return out;
  }

  static String summary(Diff diff) {
    long differing = diff.hours().stream().filter(h -> !h.identical()).count();
    long unexpected = diff.unexpectedKeys();
    String keys = Formats.count(diff.keys().size()) + (diff.keysTruncated() ? "+" : "") + " keys differ: "
        + Formats.count(diff.expectedKeys()) + " expected, " + Formats.count(unexpected) + " unexpected";
    String verdict = unexpected == 0
        ? "Every difference is explained by a rule of the spec."
        : "Some differences are not explained by the spec's rules: read them before the full run.";
    return Formats.hours(diff.hours().size()) + " compared, " + Formats.count(differing) + " differ; " + keys + ". "
        + verdict;
  }

  public StringProperty hoursProperty() {
    return hours;
  }

  public ReadOnlyStringProperty summaryProperty() {
    return summary;
  }

  public ObservableList<Diff.HourDiff> hourRows() {
    return hourRows;
  }

  public ObservableList<Diff.KeyDiff> keyRows() {
    return keyRows;
  }

  public Activity activity() {
    return activity;
  }

  public TableSpec spec() {
    return workspace.spec();
  }

  Workspace workspace() {
    return workspace;
  }
}
