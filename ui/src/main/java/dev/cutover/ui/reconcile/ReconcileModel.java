package dev.cutover.ui.reconcile;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.reconcile.ReportExport;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService.AckRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The reconcile screen: runs a reconciliation of v1 and v2 over the whole window, holds the report
 * with its verdict, the hours the charts show ({@link ChartWindow}: the overlap since B when there is
 * one), the hour the operator is looking at and its differing keys, and acknowledges a difference with
 * a written reason. Before a reconciliation runs in this console, it shows the latest stored one's
 * summary.
 */
public final class ReconcileModel implements ScreenController {

  private final Workspace workspace;
  private final Activity activity;
  private final IntegerProperty keyLimit = new SimpleIntegerProperty(10_000);
  private final ObjectProperty<Reconciliation> report = new SimpleObjectProperty<>();
  private final ObjectProperty<ReportSummary> stored = new SimpleObjectProperty<>();
  private final ChartWindow window = new ChartWindow();
  private final ObjectProperty<Identifier> measure = new SimpleObjectProperty<>();
  private final ObjectProperty<HourPartition> selectedHour = new SimpleObjectProperty<>();
  private final StringProperty filter = new SimpleStringProperty("");
  private final StringProperty note = new SimpleStringProperty("");
  private final ObservableList<Diff.KeyDiff> hourKeys = FXCollections.observableArrayList();
  private final FilteredList<Diff.KeyDiff> shownKeys = new FilteredList<>(hourKeys);
  private boolean measureChosen;

  public ReconcileModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    workspace.specProperty().addListener((o, was, is) -> {
      setReport(null);
      stored.set(null);
      note.set("");
      measureChosen = false;
      measure.set(is == null || is.measures().isEmpty() ? null : is.measures().getFirst());
    });
    selectedHour.addListener((o, was, is) -> showHour());
    report.addListener((o, was, is) -> showHour());
    filter.addListener((o, was, is) -> {
      String f = is == null ? "" : is.strip().toLowerCase(Locale.ROOT);
      shownKeys.setPredicate(f.isEmpty() ? null : k -> matches(k, f));
    });
  }

  @Override
  public void shown() {
    if (measure.get() == null && workspace.spec() != null && !workspace.spec().measures().isEmpty()) {
      measure.set(workspace.spec().measures().getFirst());
    }
    if (report.get() == null && !activity.running()) {
      readStored();
    }
  }

  /**
   * The newest stored reconciliation of the target, read back whole in the background: the screen
   * shows it, charts and all, marked as stored, until a reconciliation runs here.
   */
  private void readStored() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (spec == null || engine == null) {
      return;
    }
    record Stored(ReportSummary summary, Optional<Reconciliation> report) {}
    workspace.executor().submit(p -> {
      List<ReportSummary> list = engine.reconciliations().stored(spec);
      return list.isEmpty() ? null : new Stored(list.getFirst(), engine.reconciliations().load(list.getFirst().id()));
    }, found -> {
      if (report.get() != null || spec != workspace.spec()) {
        return;
      }
      if (found == null) {
        stored.set(null);
        note.set("No reconciliation has run for this target yet: Reconcile now compares v1 and v2 over the whole "
            + "repair.");
        return;
      }
      stored.set(found.summary());
      found.report().ifPresentOrElse(r -> {
        show(r);
        note.set(Verdicts.storedShown(found.summary()));
      }, () -> note.set(Verdicts.stored(found.summary())));
    }, failure -> note.set(Errors.sentence(failure, "read the stored reconciliations")));
  }

  /** Whether the report shown is the stored one read at start, not one made in this console. */
  public boolean showsStored() {
    return report.get() != null && stored.get() != null && report.get().id().equals(stored.get().id());
  }

  /** Compares v1 and v2 over the whole window, in the background, and stores the report. */
  public void reconcile() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    int limit = keyLimit.get();
    activity.run("reconcile v1 and v2", p -> engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, Optional.empty(), limit, p), r -> {
      workspace.repair().refresh();
      if (!measureChosen) {
        mostChanged(r).ifPresent(measure::set);
      }
      setReport(r);
      note.set("");
      // Stay on the hour the operator looks at if it still needs a look; otherwise go to the first that does.
      HourPartition keep = selectedHour.get();
      if (keep == null || !needsALook(r, keep)) {
        selectedHour.set(firstWorthALook(r));
      }
    });
  }

  /** The chart window follows the new report before anyone who watches the report redraws. */
  private void setReport(Reconciliation r) {
    window.follow(r);
    report.set(r);
  }

  /**
   * Shows a report made elsewhere, as a reconciliation run here would: for tests that build a report
   * (six months of hours, say) without reconciling one.
   */
  void show(Reconciliation r) {
    if (!measureChosen && r != null) {
      mostChanged(r).ifPresent(measure::set);
    }
    setReport(r);
    note.set("");
    selectedHour.set(r == null ? null : firstWorthALook(r));
  }

  /** The operator picks the measure the charts show; until then they show the one the fix changed most. */
  public void chooseMeasure(Identifier m) {
    if (m != null && !m.equals(measure.get())) {
      measureChosen = true;
      measure.set(m);
    }
  }

  static Optional<Identifier> mostChanged(Reconciliation r) {
    java.util.Map<Identifier, Double> change = new java.util.HashMap<>();
    r.hours().forEach(h -> h.totals().forEach(t -> change.merge(t.measure(), Math.abs(t.delta()), Double::sum)));
    return change.entrySet().stream().filter(e -> e.getValue() > 0).max(java.util.Map.Entry.comparingByValue())
        .map(java.util.Map.Entry::getKey);
  }

  private static boolean needsALook(Reconciliation r, HourPartition h) {
    return r.classes().stream().anyMatch(c -> c.hour().equals(h) && problem(c.status()));
  }

  private static boolean problem(Reconciliation.HourStatus s) {
    return switch (s) {
      case UNEXPECTED, GAP, DUPLICATE -> true;
      default -> false;
    };
  }

  /** The first hour with an unexpected difference or a coverage problem, else the first that differs. */
  static HourPartition firstWorthALook(Reconciliation r) {
    return r.classes().stream().filter(c -> problem(c.status())).map(Reconciliation.HourClass::hour).findFirst()
        .or(() -> r.hours().stream().filter(h -> !h.identical()).map(Diff.HourDiff::hour).findFirst())
        .orElse(r.window().from());
  }

  /** The keys of the chosen hour, read from the engine when the hour is chosen (a report keeps only a sample). */
  private void showHour() {
    Reconciliation r = report.get();
    HourPartition h = selectedHour.get();
    if (r == null || h == null) {
      hourKeys.clear();
      return;
    }
    hourKeys.setAll(r.keys().stream().filter(k -> k.hour().equals(h)).toList());
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (engine == null) {
      return;
    }
    workspace.executor().submit(p -> engine.reconciliations().hourKeys(spec, h, HOUR_KEY_LIMIT), keys -> {
      if (h.equals(selectedHour.get())) {
        hourKeys.setAll(keys);
      }
    }, failure -> activity.fail(failure instanceof dev.cutover.engine.api.CutoverException known ? known.getMessage()
        : "Could not read the keys of " + h + ": " + failure));
  }

  private static final int HOUR_KEY_LIMIT = 5000;

  private static boolean matches(Diff.KeyDiff k, String f) {
    return String.join(" ", k.key()).toLowerCase(Locale.ROOT).contains(f)
        || k.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ').contains(f)
        || k.rule().orElse("unexpected").toLowerCase(Locale.ROOT).contains(f);
  }

  public boolean acknowledged(Diff.KeyDiff k) {
    Reconciliation r = report.get();
    return r != null && !k.expected() && r.acknowledged().stream().anyMatch(a -> Reconciliation.covers(a, k));
  }

  /** Accepts one key's unexpected difference, with the reason the operator writes, and reconciles again. */
  public void acknowledgeKey(Diff.KeyDiff key) {
    if (key == null || key.expected()) {
      activity.fail("Select an unexpected difference in the table first; expected ones need no acknowledgement.");
      return;
    }
    acknowledge(key.hour(), key.key(), "Key " + String.join(" / ", key.key()) + " differs ("
        + key.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ") and no rule of the spec explains it.");
  }

  /** Accepts every unexpected difference of the selected hour, with a reason, and reconciles again. */
  public void acknowledgeHour() {
    HourPartition h = selectedHour.get();
    long unexpected = hourKeys.stream().filter(k -> !k.expected() && !acknowledged(k)).count();
    if (h == null || unexpected == 0) {
      activity.fail("The selected hour has no unexpected difference to acknowledge.");
      return;
    }
    acknowledge(h, List.of(), unexpected + " key(s) of this hour differ in ways no rule of the spec explains.");
  }

  private void acknowledge(HourPartition hour, List<String> key, String summary) {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    Optional<String> reason = workspace.dialogs().acknowledgeDifference(new AckRequest(hour, key, summary));
    if (reason.isEmpty()) {
      return;
    }
    int limit = keyLimit.get();
    activity.run("acknowledge the difference and reconcile again", p -> {
      engine.reconciliations().acknowledge(spec, hour, key, reason.get());
      return engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, Optional.empty(), limit, p);
    }, r -> {
      setReport(r);
      workspace.repair().refresh();
    }, failure -> workspace.repair().refresh());
  }

  /** Writes the report as CSV or HTML where the operator chooses, off the FX thread. */
  public void export(String format) {
    Reconciliation r = report.get();
    if (r == null) {
      activity.fail("There is no report to export yet; reconcile first.");
      return;
    }
    Optional<Path> file = workspace.dialogs().chooseExportFile("Export the reconciliation as " + format.toUpperCase(
        Locale.ROOT), "reconciliation-" + r.id() + "." + format, format);
    if (file.isEmpty()) {
      return;
    }
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    // The page lists a few hundred keys of each list; the CSV written beside it holds every key kept.
    activity.run("write " + file.get().getFileName(), p -> format.equals("csv")
        ? "Wrote " + engine.reconciliations().exportCsv(r, spec, file.get()).toAbsolutePath() + "."
        : written(engine.reconciliations().exportHtml(r, spec, file.get())), note::set);
  }

  private static String written(ExportedReport w) {
    return "Wrote " + w.html().toAbsolutePath() + ", and every key it kept to " + w.csv().toAbsolutePath() + ".";
  }

  public Activity activity() {
    return activity;
  }

  public IntegerProperty keyLimitProperty() {
    return keyLimit;
  }

  public ReadOnlyObjectProperty<Reconciliation> reportProperty() {
    return report;
  }

  /** The newest stored reconciliation's summary, shown until a reconciliation runs in this console. */
  public ReadOnlyObjectProperty<ReportSummary> storedProperty() {
    return stored;
  }

  /** The hours the charts show. */
  public ChartWindow window() {
    return window;
  }

  public ObjectProperty<Identifier> measureProperty() {
    return measure;
  }

  public ObjectProperty<HourPartition> selectedHourProperty() {
    return selectedHour;
  }

  public StringProperty filterProperty() {
    return filter;
  }

  public ReadOnlyStringProperty noteProperty() {
    return note;
  }

  public ObservableList<Diff.KeyDiff> shownKeys() {
    return shownKeys;
  }

  public Workspace workspace() {
    return workspace;
  }
}
