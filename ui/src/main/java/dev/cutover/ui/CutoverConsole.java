package dev.cutover.ui;

import dev.cutover.ui.connection.ConnectionModel;
import dev.cutover.ui.connection.ConnectionView;
import dev.cutover.ui.tasks.FxTaskExecutor;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/** The Cutover console window. */
public final class CutoverConsole extends Application {

  private static volatile ConsoleStartup startup;
  private ConnectionModel connection;

  /** Opens the console and returns when its window is closed. */
  public static void launch(ConsoleStartup startup) {
    CutoverConsole.startup = startup;
    Application.launch(CutoverConsole.class);
  }

  @Override
  public void start(Stage stage) {
    Scene scene = createScene(startup);
    stage.setTitle("Cutover");
    stage.setMinWidth(1024);
    stage.setMinHeight(700);
    stage.setScene(scene);
    if (Boolean.getBoolean("cutover.startup.probe")) {
      // Measures cold start: from the JVM's start to the first frame of the window, then quits.
      new javafx.animation.AnimationTimer() {
        @Override
        public void handle(long now) {
          stop();
          long started = ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
          System.out.println("first window after " + (System.currentTimeMillis() - started) + " ms");
          Platform.exit();
        }
      }.start();
    }
    stage.show();
  }

  /** Builds the console's scene and starts connecting; used by {@link #start} and by tests. */
  public Scene createScene(ConsoleStartup startup) {
    Shell shell = new Shell();
    connection = new ConnectionModel(startup, new FxTaskExecutor((message, fraction) -> connection.progress(message)));
    shell.setContent(new ConnectionView(connection).root());
    Scene scene = new Scene(shell.root(), 1280, 800);
    Themes.apply(scene, Themes.LIGHT);
    connection.connect();
    return scene;
  }

  public ConnectionModel connection() {
    return connection;
  }

  @Override
  public void stop() {
    // The pool and an embedded server this console started are closed off the FX thread.
    Thread closer = Thread.ofPlatform().name("cutover-close").start(() -> {
      if (connection != null) {
        connection.closeSession();
      }
    });
    try {
      closer.join(20_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The window's frame: a title bar with the theme switch, and the current screen. */
  static final class Shell {
    private final BorderPane root = new BorderPane();
    private final StackPane content = new StackPane();

    Shell() {
      Label name = new Label("Cutover");
      name.getStyleClass().add("app-title");
      Label tagline = new Label("Repair hourly history while the live job keeps running");
      tagline.getStyleClass().add("muted");
      Region spacer = new Region();
      HBox.setHgrow(spacer, Priority.ALWAYS);
      ToggleButton dark = new ToggleButton("_Dark theme");
      dark.setId("theme-toggle");
      dark.setMnemonicParsing(true);
      dark.selectedProperty().addListener((o, was, is) ->
          Themes.apply(root.getScene(), is ? Themes.DARK : Themes.LIGHT));
      HBox bar = new HBox(12, name, tagline, spacer, dark);
      bar.setAlignment(Pos.CENTER_LEFT);
      bar.setPadding(new Insets(10, 16, 10, 16));
      bar.getStyleClass().add("title-bar");
      content.setPadding(new Insets(24));
      content.setAlignment(Pos.TOP_CENTER);
      root.setTop(bar);
      root.setCenter(content);
      Platform.runLater(content::requestFocus);
    }

    void setContent(javafx.scene.Node node) {
      content.getChildren().setAll(node);
    }

    Parent root() {
      return root;
    }
  }
}
