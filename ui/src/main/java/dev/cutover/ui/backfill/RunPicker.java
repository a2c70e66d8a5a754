package dev.cutover.ui.backfill;

import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.ui.common.Binder;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javafx.scene.control.MenuButton;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.ToggleGroup;

/**
 * The run the Backfill screen shows: the latest, followed from one run to the next (the default), or one
 * the operator picks by id. Its menu is written only when the operator opens it. The list changes as
 * every run starts, when the screen is busiest: a ComboBox's new list made JavaFX repaint the whole scene
 * on the next two pulses (runs of 2026-12-02, in docs/BENCHMARKS.md's history), and a ChoiceBox wrote its whole menu again for
 * each entry, new nodes styled on the FX thread (runs of 2026-12-03); a button's words cost neither.
 */
final class RunPicker {

  /** The entry that follows the latest run; every other entry is a run's id. */
  static final String LATEST = "";

  private final MenuButton button = new MenuButton();
  private final BackfillModel model;

  RunPicker(Binder binder, BackfillModel model) {
    this.model = model;
    button.setId("run-select");
    button.setMnemonicParsing(false);
    // As wide as its words: a run's id and state are read whole, never cut.
    button.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    button.setOnShowing(e -> writeMenu());
    binder.watchList(model.runs(), this::showChoice);
    binder.watch(model.selectedRunProperty(), id -> showChoice());
    // The run shown is followed more often than the list is read: its own record says its state first.
    binder.watch(model.progress().recordProperty(), r -> showChoice());
  }

  MenuButton node() {
    return button;
  }

  /** The entries the menu offers, the latest first, as the menu would be written now. */
  List<String> entries() {
    return Stream.concat(Stream.of(LATEST), model.runs().stream().map(RunRecord::id)).toList();
  }

  /** What picking {@code entry} in the menu does: the screen shows that run, or follows the latest. */
  void pick(String entry) {
    model.selectedRunProperty().set(entry == null || entry.equals(LATEST) || !entries().contains(entry) ? null
        : entry);
  }

  /** The words of {@code entry}, as its menu item and the button say them. */
  String words(String entry) {
    if (entry == null || entry.equals(LATEST)) {
      return model.runs().isEmpty() ? "latest run (none yet)" : "latest: " + words(model.runs().getFirst().id());
    }
    return model.runs().stream().filter(r -> r.id().equals(entry)).findFirst()
        .map(r -> entry + " · " + stateOf(r).name().toLowerCase(Locale.ROOT)).orElse(entry);
  }

  /** A run's state: the shown run's from its own record (read with its progress), any other's from the list. */
  private RunState stateOf(RunRecord r) {
    RunRecord shown = model.progress().recordProperty().get();
    return shown != null && shown.id().equals(r.id()) ? shown.state() : r.state();
  }

  /** The entry shown: the picked run while the list has it, else the latest. */
  private String chosen() {
    String id = model.selectedRunProperty().get();
    return id != null && entries().contains(id) ? id : LATEST;
  }

  private void showChoice() {
    String words = words(chosen());
    if (!words.equals(button.getText())) {
      button.setText(words);
    }
  }

  /** The menu, written as it opens: one item per entry, the one shown marked. */
  private void writeMenu() {
    ToggleGroup group = new ToggleGroup();
    String chosen = chosen();
    button.getItems().setAll(entries().stream().map(entry -> {
      RadioMenuItem item = new RadioMenuItem(words(entry));
      item.setMnemonicParsing(false);
      item.setToggleGroup(group);
      item.setSelected(entry.equals(chosen));
      item.setOnAction(e -> pick(entry));
      return item;
    }).toList());
  }
}
