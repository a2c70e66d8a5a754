package dev.cutover.ui.connection;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.ServerInfo;
import dev.cutover.engine.connect.Session;
import dev.cutover.ui.ConsoleStartup;
import dev.cutover.ui.tasks.TaskExecutor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** The connection screen's state: what it connects to, how far it got, and what it found. */
public final class ConnectionModel {

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
  private Session session;

  public ConnectionModel(ConsoleStartup startup, TaskExecutor executor) {
    this.startup = startup;
    this.executor = executor;
  }

  /** Connects in the background; safe to call again after a failure. */
  public void connect() {
    state.set(State.CONNECTING);
    error.set("");
    step.set("Connecting to " + startup.target());
    executor.submit(
        progress -> startup.connector().open((message, done, total) ->
            progress.update(message, total > 0 ? (double) done / total : -1)),
        this::connected,
        this::failed);
  }

  private void connected(Session opened) {
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
  }

  private void failed(Throwable failure) {
    state.set(State.FAILED);
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
    if (session != null) {
      session.close();
      session = null;
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
}
