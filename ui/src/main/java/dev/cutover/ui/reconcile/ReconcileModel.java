package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
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
 * What the reconcile screen shows, on the FX thread: the report with its verdict, the hours the
 * charts show ({@link ChartWindow}: the overlap since B when there is one), the hour the operator is
 * looking at and its differing keys, and the latest stored reconciliation's summary until one runs
 * in this console. {@link ReconcileController} reconciles, reads and acknowledges, and writes here.
 */
public final class ReconcileModel {

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
  private final StringProperty blockBound = new SimpleStringProperty("");
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
    selectedHour.addListener((o, was, is) -> showSampledKeys());
    report.addListener((o, was, is) -> showSampledKeys());
    filter.addListener((o, was, is) -> {
      String f = is == null ? "" : is.strip().toLowerCase(Locale.ROOT);
      shownKeys.setPredicate(f.isEmpty() ? null : k -> matches(k, f));
    });
  }

  /** Until the operator picks one, the charts show the spec's first measure. */
  void defaultMeasure() {
    if (measure.get() == null && workspace.spec() != null && !workspace.spec().measures().isEmpty()) {
      measure.set(workspace.spec().measures().getFirst());
    }
  }

  /** Whether the report shown is the stored one read at start, not one made in this console. */
  public boolean showsStored() {
    return report.get() != null && stored.get() != null && report.get().id().equals(stored.get().id());
  }

  /**
   * A reconciliation run here: shown with the measure the fix changed most (unless the operator chose
   * one), staying on the hour the operator looks at if it still needs a look, else on the first that does.
   */
  void reconciled(Reconciliation r) {
    if (!measureChosen) {
      mostChanged(r).ifPresent(measure::set);
    }
    setReport(r);
    note.set("");
    HourPartition keep = selectedHour.get();
    if (keep == null || !needsALook(r, keep)) {
      selectedHour.set(firstWorthALook(r));
    }
  }

  /** The chart window follows the new report before anyone who watches the report redraws. */
  void setReport(Reconciliation r) {
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

  /** The keys of the chosen hour that the report kept; the controller reads the hour's keys whole. */
  private void showSampledKeys() {
    Reconciliation r = report.get();
    HourPartition h = selectedHour.get();
    if (r == null || h == null) {
      hourKeys.clear();
      return;
    }
    hourKeys.setAll(r.keys().stream().filter(k -> k.hour().equals(h)).toList());
  }

  /** The keys of {@code h} read from the engine, unless the operator moved to another hour meanwhile. */
  void hourKeysRead(HourPartition h, List<Diff.KeyDiff> keys) {
    if (h.equals(selectedHour.get())) {
      hourKeys.setAll(keys);
    }
  }

  /** How many unexpected differences of the selected hour are not acknowledged yet. */
  long unacknowledgedInHour() {
    return hourKeys.stream().filter(k -> !k.expected() && !acknowledged(k)).count();
  }

  private static boolean matches(Diff.KeyDiff k, String f) {
    return String.join(" ", k.key()).toLowerCase(Locale.ROOT).contains(f)
        || k.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ').contains(f)
        || k.rule().orElse("unexpected").toLowerCase(Locale.ROOT).contains(f)
        || k.shard().map(on -> on.toString().toLowerCase(Locale.ROOT).contains(f)).orElse(false);
  }

  /**
   * The acknowledgement the report judged that the operator would take back: that of the selected key when one
   * names it, else that of the selected hour's whole hour, else the hour's only one.
   */
  Optional<Reconciliation.Acknowledgement> acknowledgementToWithdraw(Diff.KeyDiff selectedKey) {
    Reconciliation r = report.get();
    HourPartition h = selectedKey != null ? selectedKey.hour() : selectedHour.get();
    if (r == null || h == null) {
      return Optional.empty();
    }
    List<Reconciliation.Acknowledgement> ofHour = r.acknowledged().stream().filter(a -> a.hour().equals(h)).toList();
    return ofHour.stream().filter(a -> selectedKey != null && a.key().equals(selectedKey.key())).findFirst()
        .or(() -> ofHour.stream().filter(a -> a.key().isEmpty()).findFirst())
        .or(() -> ofHour.size() == 1 ? Optional.of(ofHour.getFirst()) : Optional.empty());
  }

  public boolean acknowledged(Diff.KeyDiff k) {
    Reconciliation r = report.get();
    return r != null && !k.expected() && r.acknowledged().stream().anyMatch(a -> Reconciliation.covers(a, k));
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

  /**
   * The verdict's sentence about the measures the corrected views deduplicate within one insert block only (a
   * difference in them from B may be a retried insert); empty when no view does.
   */
  public ReadOnlyStringProperty blockBoundProperty() {
    return blockBound;
  }

  void blockBound(String sentence) {
    blockBound.set(sentence);
  }

  public ReadOnlyStringProperty noteProperty() {
    return note;
  }

  public ObservableList<Diff.KeyDiff> shownKeys() {
    return shownKeys;
  }

  void stored(ReportSummary summary) {
    stored.set(summary);
  }

  void note(String sentence) {
    note.set(sentence);
  }

  public Workspace workspace() {
    return workspace;
  }
}
