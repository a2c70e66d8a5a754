package dev.cutover.ui;

import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.repair.RepairBanner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.application.Platform;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableValue;
import javafx.scene.effect.ColorAdjust;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The window's frame: a title bar with the theme switch, a sidebar with one entry per step of the
 * procedure (Alt+letter or Ctrl+1…7), the repair banner above every screen past the connection, the
 * current screen, and a status line that turns red when the server is lost.
 *
 * <p>While what the screens show may no longer hold (the server does not answer, or the screens read
 * again after a reconnect) every screen past the connection is treated alike: greyed, with every
 * control off, under one line that says why. One binding covers every screen and every action on
 * it, so that no screen can forget a button that writes.
 */
final class ConsoleShell {

  private final BorderPane root = new BorderPane();
  private final StackPane content = new StackPane();
  private final Label status = new Label();
  private final Region statusDot = new Region();
  private final HBox statusBar;
  private final ToggleGroup navigation = new ToggleGroup();
  private final Map<String, Screen> screens = new LinkedHashMap<>();
  private final Map<String, ToggleButton> buttons = new LinkedHashMap<>();
  private final ToggleButton dark = new ToggleButton("_Dark theme");
  private final Node banner;
  private final javafx.beans.property.BooleanProperty bannerWanted = new javafx.beans.property.SimpleBooleanProperty();
  private final RepairBanner repairBanner;
  private final BooleanProperty dataScreen = new SimpleBooleanProperty();
  private final BooleanBinding greyed;
  private Screen current;
  private ScreenView currentView;

  /**
   * @param strip the line that says why the screens are greyed, shown above them meanwhile
   * @param stale whether what the screens show may no longer hold
   */
  ConsoleShell(List<Screen> all, BooleanBinding ready, RepairBanner repairBanner, Node strip,
      ObservableBooleanValue stale) {
    this.repairBanner = repairBanner;
    this.banner = repairBanner.root();
    Label name = new Label("Cutover");
    name.getStyleClass().add("app-title");
    Label tagline = new Label("Repair hourly history while the live job keeps running");
    tagline.getStyleClass().add("muted");
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    dark.setId("theme-toggle");
    dark.setMnemonicParsing(true);
    HBox bar = new HBox(12, name, tagline, spacer, dark);
    bar.setAlignment(Pos.CENTER_LEFT);
    bar.setPadding(new Insets(10, 16, 10, 16));
    bar.getStyleClass().add("title-bar");

    VBox sidebar = new VBox(4);
    sidebar.getStyleClass().add("sidebar");
    sidebar.setPadding(new Insets(16, 10, 16, 10));
    sidebar.setPrefWidth(190);
    sidebar.setMinWidth(190);
    int n = 0;
    for (Screen s : all) {
      n++;
      screens.put(s.id(), s);
      ToggleButton b = new ToggleButton(s.label());
      b.setId("nav-" + s.id());
      b.setMnemonicParsing(true);
      b.setToggleGroup(navigation);
      b.getStyleClass().add("nav-button");
      b.setMaxWidth(Double.MAX_VALUE);
      b.setAlignment(Pos.CENTER_LEFT);
      Label number = new Label(Integer.toString(n));
      number.getStyleClass().add("nav-number");
      b.setGraphic(number);
      if (s.needsSpec()) {
        b.disableProperty().bind(s.available().map(javafx.beans.binding.BooleanExpression::booleanExpression)
            .orElse(ready).not());
      }
      b.setOnAction(e -> {
        if (current != null && current.id().equals(s.id())) {
          b.setSelected(true);
        } else {
          show(s.id());
        }
      });
      buttons.put(s.id(), b);
      sidebar.getChildren().add(b);
    }
    // The side bar is a map of the procedure: each step done, current, blocked or not reached yet, from the repair's
    // one status (the banner's); nothing is marked while it is not known.
    repairBanner.watch().panels().stepsProperty().subscribe(this::mark);
    Label hint = new Label("Alt+letter or Ctrl+number\nmoves between screens.");
    hint.getStyleClass().addAll("muted", "nav-hint");
    Region grow = new Region();
    VBox.setVgrow(grow, Priority.ALWAYS);
    sidebar.getChildren().addAll(grow, hint);

    status.setId("status-line");
    status.getStyleClass().add("muted");
    // A cluster's line names its data directory and spec file: it wraps rather than be cut at 1280 pixels.
    Widgets.wrap(status);
    HBox.setHgrow(status, Priority.ALWAYS);
    statusDot.getStyleClass().add("status-dot");
    statusBar = new HBox(8, statusDot, status);
    statusBar.setAlignment(Pos.CENTER_LEFT);
    statusBar.setId("status-bar");
    statusBar.getStyleClass().add("status-bar");
    statusBar.setPadding(new Insets(4, 16, 4, 16));

    content.setPadding(new Insets(18, 22, 18, 22));
    content.setAlignment(Pos.TOP_LEFT);
    content.getStyleClass().add("content");
    root.setTop(bar);
    root.setLeft(sidebar);
    // The banner reads the repair, on one server or over every shard: above a screen that wants it.
    banner.visibleProperty().bind(bannerWanted);
    banner.managedProperty().bind(banner.visibleProperty());
    VBox screen = new VBox(banner, content);
    screen.setId("screen");
    VBox.setVgrow(content, Priority.ALWAYS);
    greyed = dataScreen.and(stale);
    strip.visibleProperty().bind(greyed);
    strip.managedProperty().bind(greyed);
    screen.disableProperty().bind(greyed);
    ColorAdjust grey = new ColorAdjust(0, -1, 0, 0);
    greyed.subscribe(g -> {
      screen.setEffect(g ? grey : null);
      screen.getStyleClass().remove("stale-screen");
      if (g) {
        screen.getStyleClass().add("stale-screen");
      }
    });
    VBox centre = new VBox(strip, screen);
    VBox.setVgrow(screen, Priority.ALWAYS);
    root.setCenter(centre);
    root.setBottom(statusBar);
    root.sceneProperty().addListener((o, was, scene) -> {
      if (scene != null) {
        int i = 0;
        for (ToggleButton b : buttons.values()) {
          KeyCode digit = KeyCode.valueOf("DIGIT" + (++i));
          scene.getAccelerators().put(new KeyCodeCombination(digit, KeyCombination.SHORTCUT_DOWN), () -> {
            if (!b.isDisabled()) {
              b.fire();
            }
          });
        }
      }
    });
  }

  /** Leaves the current screen (releasing its view's bindings, stopping its polling) and shows another. */
  private void mark(java.util.Map<String, dev.cutover.ui.repair.ProcedureMap.Step> steps) {
    for (String id : dev.cutover.ui.repair.ProcedureMap.SCREENS) {
      ToggleButton b = buttons.get(id);
      if (b == null) {
        continue;
      }
      var step = steps.get(id);
      Node number = b.getGraphic();
      number.getStyleClass().removeIf(c -> c.startsWith("step-"));
      b.getProperties().put("step", step);
      if (step == null) {
        b.setTooltip(null);
        continue;
      }
      number.getStyleClass().add("step-" + step.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
      b.setTooltip(new javafx.scene.control.Tooltip(b.getText().replace("_", "") + ": " + step.words()));
    }
  }

  /**
   * Shows screen {@code id} when its button in the side bar is enabled (connected, a spec loaded, the screen serving
   * it): what a link from elsewhere in the console may open.
   */
  void showIfOpen(String id) {
    var button = buttons.get(id);
    if (button != null && !button.isDisabled()) {
      show(id);
    }
  }

  void show(String id) {
    Screen next = screens.get(id);
    if (current != null) {
      currentView.dispose();
      current.controller().hidden();
    }
    current = next;
    currentView = next.view().get();
    // Screens fill the window; a screen taller than the window (a small display, a long finding) scrolls.
    ScrollPane scroll = new ScrollPane(currentView.root());
    scroll.setFitToWidth(true);
    scroll.setFitToHeight(true);
    scroll.getStyleClass().add("plain-scroll");
    scroll.setFocusTraversable(false);
    content.getChildren().setAll(scroll);
    buttons.get(id).setSelected(true);
    bannerWanted.set(next.banner());
    dataScreen.set(next.needsSpec());
    repairBanner.compact(currentView.compactBanner());
    next.controller().shown();
    Platform.runLater(() -> content.requestFocus());
  }

  String currentScreen() {
    return current == null ? "" : current.id();
  }

  ScreenView currentView() {
    return currentView;
  }

  void leave() {
    if (current != null) {
      currentView.dispose();
      current.controller().hidden();
    }
  }

  ToggleButton darkToggle() {
    return dark;
  }

  /** The status line's text, and its tone (ok, working, lost, failed) as a style class of the bar and the line. */
  void bindStatus(ObservableValue<String> text, ObservableValue<String> tone) {
    status.textProperty().bind(text);
    // A long reason (a data directory's path) may not fit the bar: the whole line is a tooltip away.
    javafx.scene.control.Tooltip whole = new javafx.scene.control.Tooltip();
    whole.textProperty().bind(text);
    whole.setWrapText(true);
    whole.setMaxWidth(720);
    status.setTooltip(whole);
    tone.subscribe(t -> {
      for (Node n : List.of(statusBar, status)) {
        n.getStyleClass().removeIf(c -> c.startsWith("status-") && !c.equals("status-bar"));
        n.getStyleClass().add("status-" + t);
      }
    });
  }

  /** Whether the screen shown is greyed because what it shows may no longer hold. */
  boolean greyed() {
    return greyed.get();
  }

  Parent root() {
    return root;
  }
}
