package dev.cutover.ui.common;

import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.Region;

/** A screen's view: builds its nodes in code, binds them through its {@link Binder}, and releases them when left. */
public abstract class ScreenView {

  protected final Binder binder = new Binder();

  public abstract Node root();

  /** Releases every binding to the model; called when the operator leaves the screen. */
  public void dispose() {
    binder.dispose();
  }

  public Binder binder() {
    return binder;
  }

  /**
   * A list of sentences that follows {@code items}: each finding wraps in the list's width rather than running off
   * its edge, and {@code empty} says what the list will show once there is something.
   */
  protected ListView<String> sentences(String id, ObservableList<String> items, String empty) {
    ListView<String> view = new ListView<>();
    view.setCellFactory(v -> new ListCell<>() {
      {
        setWrapText(true);
        prefWidthProperty().bind(v.widthProperty().subtract(24));
        setMaxWidth(Region.USE_PREF_SIZE);
      }

      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty ? null : item);
      }
    });
    view.setId(id);
    view.setPlaceholder(Widgets.wrap(Widgets.muted(empty)));
    binder.mirror(view.getItems(), items);
    return view;
  }

  /** Whether the repair banner above this screen is shown on one line, to leave the screen its height. */
  public boolean compactBanner() {
    return false;
  }
}
