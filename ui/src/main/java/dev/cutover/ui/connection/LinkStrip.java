package dev.cutover.ui.connection;

import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The line above every screen past the connection while what the screen shows may no longer hold:
 * the server does not answer (why, since when, and that nothing can be written or switched), or the
 * console has reconnected and the screens read again. The screen below it is greyed meanwhile.
 */
public final class LinkStrip {

  private final HBox root = new HBox();

  public LinkStrip(ObservableValue<ServerLink> link, ObservableBooleanValue fresh) {
    Label text = Widgets.wrap(Widgets.label("link-strip-text"));
    text.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(text, Priority.ALWAYS);
    text.textProperty().bind(Bindings.createStringBinding(() -> words(link.getValue(), fresh.get()), link, fresh));
    root.getChildren().add(text);
    root.setId("link-strip");
    root.setAlignment(Pos.CENTER_LEFT);
    root.setPadding(new Insets(6, 22, 6, 22));
    root.getStyleClass().add("link-strip");
    Runnable tone = () -> {
      root.getStyleClass().removeAll("lost", "rereading");
      root.getStyleClass().add(link.getValue().lost() ? "lost" : "rereading");
    };
    link.addListener((o, was, is) -> tone.run());
    tone.run();
  }

  /** What the strip says; empty while what is shown was read from the server that answers now. */
  static String words(ServerLink link, boolean fresh) {
    return switch (link.state()) {
      case LOST, RECONNECTING -> "Server lost at " + Formats.clock(link.since()) + ": " + link.sentence()
          + (link.state() == ServerLink.State.LOST ? " Cutover reconnects by itself."
              : " Reconnecting… (attempt " + link.attempt() + ")." + (link.lastFailure().isEmpty() ? ""
                  : " The last attempt failed: " + link.lastFailure()))
          + "\nWhat this screen shows was read before then and is greyed; nothing can be written or switched until it "
          + "is read again.";
      case STOPPED -> "Server stopped at " + Formats.clock(link.since()) + ": " + link.sentence() + " "
          + ServerLink.STAYS_STOPPED + "\nWhat this screen shows was read before then and is greyed; nothing can be "
          + "written or switched until it is read again.";
      case CONNECTED, NONE -> fresh ? "" : "Connected again. Every screen reads what it shows again; its actions "
          + "open once it has.";
    };
  }

  public Node root() {
    return root;
  }
}
