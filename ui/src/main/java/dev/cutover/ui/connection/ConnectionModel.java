package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.ServerInfo;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Session;
import dev.cutover.ui.ConsoleStartup;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenModel;
import dev.cutover.ui.tasks.TaskExecutor;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The connection screen's state: what it connects to, how far it got, what it found, and which
 * spec the console works on.
 */
public final class ConnectionModel implements ScreenModel {

  /** Where the connection stands. */
  public enum State {
    CONNECTING("Connecting"),
    CONNECTED("Connected"),
    FAILED("Not connected");

    private final String label;

    State(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final ConsoleStartup startup;
  private final TaskExecutor executor;
  private final ObjectProperty<State> state = new SimpleObjectProperty<>(State.CONNECTING);
  private final StringProperty step = new SimpleStringProperty("");
  private final StringProperty error = new SimpleStringProperty("");
  private final StringProperty version = new SimpleStringProperty("—");
  private final StringProperty address = new SimpleStringProperty("—");
  private final StringProperty database = new SimpleStringProperty("—");
  private final StringProperty dataDirectory = new SimpleStringProperty("—");
  private final StringProperty mode = new SimpleStringProperty("—");
  private final StringProperty specFile = new SimpleStringProperty("");
  private final StringProperty specSummary = new SimpleStringProperty("No spec loaded.");
  private final StringProperty statusLine = new SimpleStringProperty("");
  private String sessionText = "";
  private final Workspace workspace;
  private final Activity specLoading;
  private volatile Session session;

  public ConnectionModel(ConsoleStartup startup, Workspace workspace) {
    this.startup = startup;
    this.workspace = workspace;
    this.executor = workspace.executor();
    this.specLoading = new Activity(executor);
    startup.defaultSpec().ifPresent(p -> specFile.set(p.toString()));
  }

  /** Connects in the background; safe to call again after a failure. */
  public void connect() {
    state.set(State.CONNECTING);
    error.set("");
    step.set("Connecting to " + startup.target());
    statusLine.set("Connecting to " + startup.target() + "…");
    executor.submit(
        progress -> {
          Session opened = startup.connector().open((message, done, total) ->
              progress.update(message, total > 0 ? (double) done / total : -1));
          return new Opened(opened, new Engine(opened.database()));
        },
        this::connected,
        this::failed);
  }

  private record Opened(Session session, Engine engine) {}

  private void connected(Opened result) {
    Session opened = result.session();
    session = opened;
    ServerInfo info = opened.server();
    version.set("ClickHouse " + info.version());
    address.set(info.address() + (info.tls() ? " (TLS)" : ""));
    database.set(info.database() + " (" + info.databaseEngine() + "), user " + info.user());
    mode.set(opened.embedded().isPresent()
        ? (opened.embedded().get().owner() ? "Embedded, started by this console" : "Embedded, shared with another Cutover process")
        : "Server given by JDBC URL");
    dataDirectory.set(opened.embedded().map(e -> e.dataDirectory().toString()).orElse("— (not embedded)"));
    step.set("");
    state.set(State.CONNECTED);
    sessionText = opened.describe();
    statusLine.set(sessionText + " · no spec loaded");
    workspace.engineProperty().set(result.engine());
    if (!specFile.get().isBlank() && workspace.spec() == null) {
      loadSpec();
    }
  }

  /** Asks for a spec file and loads it. */
  public void chooseSpec() {
    Optional<Path> current = parse(specFile.get());
    workspace.dialogs().chooseSpecFile(current).ifPresent(p -> {
      specFile.set(p.toString());
      loadSpec();
    });
  }

  /** Loads and validates the spec named in the field, in the background. */
  public void loadSpec() {
    Engine engine = workspace.engine();
    if (engine == null) {
      specLoading.fail("Connect first: the spec is checked against the server.");
      return;
    }
    Optional<Path> path = parse(specFile.get());
    if (path.isEmpty()) {
      specLoading.fail("Give the path of a spec file (YAML), or choose one with Browse.");
      return;
    }
    if (!Files.isRegularFile(path.get())) {
      specLoading.fail("There is no file at " + path.get().toAbsolutePath() + "; check the path or choose the spec "
          + "with Browse.");
      return;
    }
    specLoading.run("load the spec " + path.get().getFileName(), p -> engine.loadSpec(path.get()), spec -> {
      workspace.specProperty().set(spec);
      specSummary.set(summary(spec));
      statusLine.set(sessionText + " · spec " + spec.name() + " (" + path.get().toAbsolutePath() + ")");
    });
  }

  static String summary(TableSpec s) {
    return s.name() + ": " + s.database() + "." + s.liveTable() + " (v1) is repaired into " + s.database() + "."
        + s.targetTable() + " (v2); consumers read " + s.consumerView() + ". Keys " + names(s.keys()) + ", measures "
        + names(s.measures()) + ", safety margin " + s.safetyMargin().toHours() + " h, spec sha256 "
        + s.sha256().substring(0, Math.min(12, s.sha256().length())) + "…";
  }

  private static String names(java.util.List<dev.cutover.engine.api.Identifier> ids) {
    return String.join(", ", ids.stream().map(dev.cutover.engine.api.Identifier::name).toList());
  }

  private static Optional<Path> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(text.strip()));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  private void failed(Throwable failure) {
    state.set(State.FAILED);
    statusLine.set("Not connected");
    step.set("");
    error.set(failure instanceof CutoverException known
        ? known.getMessage()
        : "Cutover could not connect because of an unexpected error (" + failure + "). Try again; if it "
            + "persists, run ./cutover check in a terminal for details.");
  }

  /** Called from the progress sink on the FX thread. */
  public void progress(String message) {
    if (state.get() == State.CONNECTING) {
      step.set(message);
    }
  }

  /** Closes the session (and stops an embedded server this console started). Blocking: call off the FX thread. */
  public void closeSession() {
    Session open = session;
    session = null;
    if (open != null) {
      open.close();
    }
  }

  public ReadOnlyObjectProperty<State> stateProperty() {
    return state;
  }

  public ReadOnlyStringProperty stepProperty() {
    return step;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error;
  }

  public ReadOnlyStringProperty versionProperty() {
    return version;
  }

  public ReadOnlyStringProperty addressProperty() {
    return address;
  }

  public ReadOnlyStringProperty databaseProperty() {
    return database;
  }

  public ReadOnlyStringProperty dataDirectoryProperty() {
    return dataDirectory;
  }

  public ReadOnlyStringProperty modeProperty() {
    return mode;
  }

  public String target() {
    return startup.target();
  }

  /** One line for the window's status bar: where the console is connected and which spec it works on. */
  public ReadOnlyStringProperty statusLineProperty() {
    return statusLine;
  }

  public StringProperty specFileProperty() {
    return specFile;
  }

  public ReadOnlyStringProperty specSummaryProperty() {
    return specSummary;
  }

  public Activity specLoading() {
    return specLoading;
  }

  public Workspace workspace() {
    return workspace;
  }
}
