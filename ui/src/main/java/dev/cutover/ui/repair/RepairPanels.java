package dev.cutover.ui.repair;

import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Formats;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;

/**
 * The words every panel shows of the repair (the banner, the phase's pill, the procedure map, the next step),
 * derived at once from what {@link RepairWatch} last read, so that no panel says more or less than another. It
 * reads nothing itself.
 */
public final class RepairPanels {

  private final StringProperty problem = new SimpleStringProperty("");
  private final StringProperty phase = new SimpleStringProperty("");
  private final StringProperty tone = new SimpleStringProperty("none");
  private final StringProperty repair = new SimpleStringProperty("");
  private final StringProperty repairShort = new SimpleStringProperty("");
  private final StringProperty liveWriter = new SimpleStringProperty("");
  private final StringProperty verdict = new SimpleStringProperty("");
  private final StringProperty verdictSource = new SimpleStringProperty("");
  private final StringProperty nextButton = new SimpleStringProperty("");
  private final StringProperty nextScreen = new SimpleStringProperty("");
  private final StringProperty nextControl = new SimpleStringProperty("");
  private final ObjectProperty<Map<String, ProcedureMap.Step>> steps = new SimpleObjectProperty<>(Map.of());
  private final StringProperty nextSentence = new SimpleStringProperty("");
  private final StringProperty nextCommand = new SimpleStringProperty("");
  private final StringProperty asOf = new SimpleStringProperty("");

  RepairPanels() {}

  /**
   * What the watch knows now.
   *
   * @param spec the spec loaded, or null
   * @param status the status of the last snapshot, or null while nothing current is known
   * @param recordOnly whether only the repair's state record could be read ({@code record}, at {@code recordAt})
   * @param error the sentence of the last read's failure; empty after a read that worked
   * @param armed the armed cutover the last snapshot holds
   */
  record Seen(TableSpec spec, RepairStatus status, boolean recordOnly, Optional<Repair> record, Instant recordAt,
      String error, boolean reading, Instant failedAt, Optional<Armed> armed) {}

  void show(Seen seen) {
    RepairStatus s = seen.status();
    TableSpec spec = seen.spec();
    String target = spec == null ? "" : spec.database() + "." + spec.targetTable();
    boolean failed = !seen.error().isEmpty();
    Optional<Optional<Repair>> known = s != null ? Optional.of(s.repair()) : seen.recordOnly()
        ? Optional.of(seen.record()) : Optional.empty();
    phase.set(known.map(RepairWords::phase).orElse(failed ? "unknown" : seen.reading() ? "reading" : ""));
    tone.set(known.map(RepairWords::tone).orElse(failed ? "unknown" : "none"));
    boolean byView = spec != null && spec.correctedWriter().byViews();
    // An armed cutover is part of where the repair stands: every screen's banner says so, with its window.
    String armed = seen.armed().map(a -> " · cutover " + a.describe()).orElse("");
    repair.set(known.map(r -> RepairWords.repair(r, target, byView) + armed).orElse(failed || spec == null
        ? "" : "Reading where the repair of " + spec.name() + " stands…"));
    repairShort.set(known.map(r -> RepairWords.repairShort(r, target, byView) + (armed.isEmpty() ? ""
        : " · cutover armed")).orElse(failed || spec == null ? "" : "Reading…"));
    problem.set(!failed ? "" : seen.recordOnly() ? "Read the repair's record, but not its data: " + seen.error()
        : seen.error());
    liveWriter.set(s == null ? "" : RepairWords.liveWriter(s));
    verdict.set(s == null ? "" : RepairWords.verdict(s));
    verdictSource.set(s == null ? "" : RepairWords.verdictSource(s));
    nextButton.set(s == null ? "" : RepairWords.nextButton(s));
    nextScreen.set(s == null ? "" : NextStepWords.screen(s.next()));
    nextControl.set(s == null ? "" : NextStepWords.control(s.next()));
    steps.set(ProcedureMap.of(s));
    nextSentence.set(s == null ? "" : RepairWords.nextSentence(s));
    nextCommand.set(s == null ? "" : RepairWords.command(s, spec == null ? "" : spec.consumerView().name()));
    // The same length while a read runs (the Refresh button shows it), so that the banner does not move the screen.
    asOf.set(s != null ? "as of " + Formats.clock(s.at()) : seen.recordOnly() ? "record as of "
        + Formats.clock(seen.recordAt()) : failed ? "could not read at " + Formats.clock(seen.failedAt())
        : seen.reading() ? "reading…" : "");
  }

  /**
   * What could not be read, as a sentence: the whole status, or only its data when the repair's record
   * could be read (then the phase shown is the record's). Empty after a read that worked.
   */
  public ReadOnlyStringProperty problemProperty() {
    return problem;
  }

  /** The phase's words, "no repair yet", "reading" or "unknown". */
  public ReadOnlyStringProperty phaseProperty() {
    return phase;
  }

  /** none, working, good, ended or unknown: how the phase's pill looks. */
  public ReadOnlyStringProperty toneProperty() {
    return tone;
  }

  /** The repair's id, boundary, first hour and operation in flight, or that there is none yet. */
  public ReadOnlyStringProperty repairProperty() {
    return repair;
  }

  /** The repair on the compact banner's one line: its id, B and the operation in flight. */
  public ReadOnlyStringProperty repairShortProperty() {
    return repairShort;
  }

  public ReadOnlyStringProperty liveWriterProperty() {
    return liveWriter;
  }

  public ReadOnlyStringProperty verdictProperty() {
    return verdict;
  }

  /** Which reconciliation made the verdict, and when; empty while there is none. */
  public ReadOnlyStringProperty verdictSourceProperty() {
    return verdictSource;
  }

  /** The screen and button of the next step, e.g. "Reconcile: Reconcile"; empty when none is left. */
  public ReadOnlyStringProperty nextButtonProperty() {
    return nextButton;
  }

  /** Where each screen of the procedure stands (done, current, blocked, not yet); empty while it is not known. */
  public ObservableValue<Map<String, ProcedureMap.Step>> stepsProperty() {
    return steps;
  }

  /** The id of the screen the next step is taken on; empty when nothing is left to do in Cutover. */
  /** The id of the control that takes the next step on its screen, which the next step's button focuses. */
  public ReadOnlyStringProperty nextControlProperty() {
    return nextControl;
  }

  public ReadOnlyStringProperty nextScreenProperty() {
    return nextScreen;
  }

  public ReadOnlyStringProperty nextSentenceProperty() {
    return nextSentence;
  }

  public ReadOnlyStringProperty nextCommandProperty() {
    return nextCommand;
  }

  /** "as of 10:42:07 UTC" (the time of the last read), "reading…" before it, or when the last read failed. */
  public ReadOnlyStringProperty asOfProperty() {
    return asOf;
  }
}
