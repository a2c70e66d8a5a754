package dev.cutover.ui.dialogs;

import dev.cutover.ui.common.Widgets;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;

/** The part every confirmation of a change shares: the exact statement, read-only, under its caption. */
final class Statements {

  private Statements() {}

  /** The caption that says the statement is shown exactly as it will run. */
  static Label caption() {
    return Widgets.muted("The statement, exactly as it will run:");
  }

  /** The statement in a read-only monospaced box of {@code rows} lines, copyable. */
  static TextArea box(String id, String statement, int rows) {
    TextArea box = new TextArea(statement);
    box.setId(id);
    box.setEditable(false);
    box.setWrapText(true);
    box.setPrefRowCount(rows);
    box.getStyleClass().add("mono");
    return box;
  }
}
