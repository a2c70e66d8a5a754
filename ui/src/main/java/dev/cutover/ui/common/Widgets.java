package dev.cutover.ui.common;

import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The few building blocks every screen uses, so that they look and behave alike. */
public final class Widgets {

  private Widgets() {}

  /** A bordered card with a title. */
  public static VBox card(String title, Node... content) {
    Label t = new Label(title);
    t.getStyleClass().add("card-title");
    return card(t, content);
  }

  /** A card whose first line is {@code header}: a row that starts with the card's title, where a row can hold it. */
  public static VBox card(Node header, Node... content) {
    VBox box = new VBox(10, header);
    box.getChildren().addAll(content);
    box.getStyleClass().add("card");
    box.setPadding(new Insets(14, 16, 14, 16));
    return box;
  }

  /** A button whose underscored letter is its Alt mnemonic. */
  public static Button button(String id, String text) {
    Button b = new Button(text);
    b.setId(id);
    b.setMnemonicParsing(true);
    b.setMinWidth(Region.USE_PREF_SIZE);
    return b;
  }

  /**
   * Marks a control that switches consumers or destroys data (cutover, rollback, drop v1, abandon) and its
   * dialog's confirm button: drawn in the danger colour, never like a routine button beside it.
   */
  public static <N extends javafx.scene.Node> N danger(N node) {
    if (!node.getStyleClass().contains(DANGER)) {
      node.getStyleClass().add(DANGER);
    }
    return node;
  }

  /** The style class of {@link #danger}. */
  public static final String DANGER = "danger";

  public static Label label(String id, String... styleClasses) {
    Label l = new Label();
    l.setId(id);
    l.getStyleClass().addAll(styleClasses);
    return l;
  }

  /** A label whose underscored letter (Alt+letter) focuses {@code target}; it never shrinks below its text. */
  public static Label labelFor(String text, Node target) {
    Label l = new Label(text);
    l.setMnemonicParsing(true);
    l.setLabelFor(target);
    l.setMinWidth(Region.USE_PREF_SIZE);
    return l;
  }

  public static Label muted(String text) {
    Label l = new Label(text);
    l.getStyleClass().add("muted");
    return l;
  }

  /**
   * Lets a label wrap and keeps the height its wrapped text needs: inside a VBox a wrapping label is
   * otherwise squeezed to one line and ends in an ellipsis.
   */
  public static <T extends Label> T wrap(T label) {
    label.setWrapText(true);
    label.setMinHeight(Region.USE_PREF_SIZE);
    return label;
  }

  /** Marks a region that {@link #keepTallest} holds, for {@link #startOverAbove}. */
  private static final String KEEP_TALLEST = "keep-tallest";

  /**
   * Keeps {@code region} at the tallest height it has had at its present width, so that lines coming and
   * going inside it (a step's bar, a run's message) never move what lies below it: a move repaints the
   * whole screen below, in software a frame the FX thread waits for. A change of width starts over.
   */
  public static void keepTallest(Region region) {
    region.getProperties().put(KEEP_TALLEST, Boolean.TRUE);
    region.heightProperty().addListener((o, was, is) -> {
      if (is.doubleValue() > region.getMinHeight()) {
        region.setMinHeight(is.doubleValue());
      }
    });
    region.widthProperty().addListener((o, was, is) -> region.setMinHeight(Region.USE_COMPUTED_SIZE));
  }

  /**
   * Lets every region above {@code n} that {@link #keepTallest keeps its tallest height} take the height of what it
   * holds now: after the operator's own change (a sentence shown and hidden again), not a run's, which is what the
   * kept height is for.
   */
  static void startOverAbove(Node n) {
    for (javafx.scene.Parent p = n.getParent(); p != null; p = p.getParent()) {
      if (p instanceof Region r && Boolean.TRUE.equals(r.getProperties().get(KEEP_TALLEST))) {
        r.setMinHeight(Region.USE_COMPUTED_SIZE);
      }
    }
  }

  /** A label that keeps its whole text: never shortened to an ellipsis when space is tight. */
  public static <T extends javafx.scene.control.Labeled> T whole(T labeled) {
    labeled.setMinWidth(Region.USE_PREF_SIZE);
    return labeled;
  }

  /**
   * What a step guarantees and which failure it prevents, in the engine's words ({@code api.Safety}):
   * a short muted text beside the control where the operator decides.
   */
  public static Label safety(String id, String sentence) {
    Label l = wrap(label(id, "muted", "safety"));
    l.setText(sentence);
    l.setMaxWidth(Double.MAX_VALUE);
    return l;
  }

  /**
   * {@link #safety(String, String)} where a screen has no room for the whole sentence: its {@code brief} line always
   * shows, and the whole sentence below it while the operator has asked why (a toggle beside the line, reached by
   * Tab as any control). The whole sentence keeps the id {@code id}; the line is {@code id-brief}, the toggle
   * {@code id-why}.
   */
  public static VBox safety(String id, String brief, String sentence) {
    Label line = wrap(label(id + "-brief", "muted", "safety"));
    line.setText(brief);
    Label whole = safety(id, sentence);
    whole.setVisible(false);
    whole.setManaged(false);
    ToggleButton why = new ToggleButton("Why?");
    why.setId(id + "-why");
    why.getStyleClass().add("why");
    why.setMinWidth(Region.USE_PREF_SIZE);
    why.selectedProperty().addListener((o, was, shown) -> {
      whole.setVisible(shown);
      whole.setManaged(shown);
      why.setText(shown ? "Less" : "Why?");
      startOverAbove(why);
    });
    HBox row = new HBox(6, line, why);
    row.setAlignment(Pos.BASELINE_LEFT);
    HBox.setHgrow(line, Priority.SOMETIMES);
    return new VBox(2, row, whole);
  }

  /** A key/value grid: muted keys in a fixed column, values that wrap. */
  public static GridPane facts(double keyWidth) {
    GridPane g = new GridPane();
    g.setHgap(14);
    g.setVgap(6);
    ColumnConstraints k = new ColumnConstraints(keyWidth);
    ColumnConstraints v = new ColumnConstraints();
    v.setHgrow(Priority.ALWAYS);
    g.getColumnConstraints().addAll(k, v);
    return g;
  }

  public static void fact(GridPane grid, String key, Node value) {
    Label k = muted(key);
    k.setMinWidth(Region.USE_PREF_SIZE);
    if (value instanceof Label l) {
      wrap(l);
    }
    GridPane.setValignment(k, javafx.geometry.VPos.TOP);
    grid.addRow(grid.getRowCount(), k, value);
  }

  /** A form row: a label whose underscored letter focuses {@code control}, then the control (and more). */
  public static void field(GridPane grid, String label, Node control, Node... more) {
    Label k = labelFor(label, control);
    k.getStyleClass().add("muted");
    HBox row = new HBox(8, control);
    row.getChildren().addAll(more);
    row.setAlignment(Pos.CENTER_LEFT);
    grid.addRow(grid.getRowCount(), k, row);
  }

  /** The red sentence of a screen's last failure; hidden while there is none. */
  public static Label errorLabel(String id, Binder binder, ObservableValue<String> error) {
    Label l = wrap(new Label());
    l.setId(id);
    l.getStyleClass().add("error-text");
    l.setMaxWidth(Double.MAX_VALUE);
    binder.bind(l.textProperty(), error);
    binder.watch(error, e -> {
      boolean show = e != null && !e.isEmpty();
      l.setVisible(show);
      l.setManaged(show);
    });
    return l;
  }

  /** Progress of an activity with its message and a Cancel button (Escape); hidden while idle. */
  public static HBox activityBar(String id, Binder binder, Activity activity) {
    return activityBar(id, binder, activity, false);
  }

  /**
   * As {@link #activityBar(String, Binder, Activity)}, its row kept while idle (hidden, not removed): for a
   * card above content that must not move when a step starts or ends (see {@link #keepTallest}).
   */
  public static HBox activityRow(String id, Binder binder, Activity activity) {
    return activityBar(id, binder, activity, true);
  }

  private static HBox activityBar(String id, Binder binder, Activity activity, boolean keepRow) {
    ProgressBar bar = new ProgressBar();
    bar.setPrefWidth(180);
    binder.bind(bar.progressProperty(), activity.progressProperty());
    // A step's message (on a cluster it names the cluster and its nodes) wraps in the room the row leaves.
    Label message = wrap(new Label());
    message.getStyleClass().add("muted");
    binder.bind(message.textProperty(), activity.messageProperty());
    Button cancel = new Button("Cancel");
    cancel.setId(id + "-cancel");
    cancel.setCancelButton(true);
    cancel.setOnAction(e -> activity.cancel());
    // The message gives way, wrapping; the bar and Cancel keep their size.
    cancel.setMinWidth(Region.USE_PREF_SIZE);
    bar.setMinWidth(Region.USE_PREF_SIZE);
    HBox box = new HBox(10, bar, message, cancel);
    box.setId(id);
    box.setAlignment(Pos.CENTER_LEFT);
    binder.watch(activity.runningProperty(), running -> {
      box.setVisible(running);
      box.setManaged(running || keepRow);
      cancel.setCancelButton(running && activity.cancellableProperty().get());
    });
    // A step that must be seen to its end offers no Cancel, and Esc does not pretend to stop it.
    binder.watch(activity.cancellableProperty(), may -> {
      cancel.setVisible(may);
      cancel.setManaged(may);
      cancel.setCancelButton(may && activity.runningProperty().get());
    });
    return box;
  }

  public static Region spacer() {
    Region r = new Region();
    HBox.setHgrow(r, Priority.ALWAYS);
    VBox.setVgrow(r, Priority.ALWAYS);
    return r;
  }

  public static HBox row(double gap, Node... nodes) {
    HBox box = new HBox(gap, nodes);
    box.setAlignment(Pos.CENTER_LEFT);
    return box;
  }
}
