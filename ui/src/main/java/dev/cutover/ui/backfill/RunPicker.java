package dev.cutover.ui.backfill;

import dev.cutover.engine.api.RunRecord;
import dev.cutover.ui.common.Binder;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javafx.scene.control.ChoiceBox;
import javafx.util.StringConverter;

/**
 * The run the Backfill screen shows: the latest, followed from one run to the next (the default), or one
 * the operator picks by id. A ChoiceBox, not a ComboBox: a ComboBox whose list changes makes JavaFX repaint
 * the whole scene on the next two pulses, and this list changes as every run starts, when the screen is
 * busiest (docs/BENCHMARKS.md, section 17).
 */
final class RunPicker {

  /** The entry that follows the latest run; every other entry is a run's id. */
  static final String LATEST = "";

  private final ChoiceBox<String> box = new ChoiceBox<>();
  private final BackfillModel model;
  /** Each entry's words as last written: a run's state is in them. */
  private List<String> written = List.of();
  /** While the list is filled or the model's choice shown, the box's changes are not the operator's. */
  private boolean quiet;

  RunPicker(Binder binder, BackfillModel model) {
    this.model = model;
    box.setId("run-select");
    box.setPrefWidth(320);
    box.getItems().setAll(LATEST);
    box.setConverter(converter());
    box.setValue(LATEST);
    binder.watchList(model.runs(), this::fill);
    binder.watch(model.selectedRunProperty(), this::show);
    box.setOnAction(e -> {
      if (!quiet) {
        String v = box.getValue();
        model.selectedRunProperty().set(v == null || v.equals(LATEST) ? null : v);
      }
    });
  }

  ChoiceBox<String> node() {
    return box;
  }

  private void fill() {
    List<String> entries = Stream.concat(Stream.of(LATEST), model.runs().stream().map(RunRecord::id)).toList();
    List<String> now = entries.stream().map(this::words).toList();
    if (now.equals(written)) {
      return;
    }
    written = now;
    quiet = true;
    try {
      if (!entries.equals(box.getItems())) {
        box.getItems().setAll(entries);
      }
      box.setConverter(converter()); // writes every entry's words again, states included
      show(model.selectedRunProperty().get());
    } finally {
      quiet = false;
    }
  }

  private void show(String id) {
    boolean was = quiet;
    quiet = true;
    try {
      box.setValue(id != null && box.getItems().contains(id) ? id : LATEST);
    } finally {
      quiet = was;
    }
  }

  private String words(String entry) {
    if (entry == null || entry.equals(LATEST)) {
      return model.runs().isEmpty() ? "latest run (none yet)" : "latest: " + words(model.runs().getFirst().id());
    }
    return model.runs().stream().filter(r -> r.id().equals(entry)).findFirst()
        .map(r -> entry + " · " + r.state().name().toLowerCase(Locale.ROOT)).orElse(entry);
  }

  private StringConverter<String> converter() {
    return new StringConverter<>() {
      @Override
      public String toString(String entry) {
        return words(entry);
      }

      @Override
      public String fromString(String s) {
        return s;
      }
    };
  }
}
