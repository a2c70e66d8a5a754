package dev.cutover.ui.connection;

import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ServerInfo;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * What the connection screen says of the server a session opened on: version, address, database and
 * user, how the console reached it, and the embedded server's data directory. Read once per session,
 * when it opens; greyed on the screen while the server is lost, as everything else read from it.
 */
public final class ServerFacts {

  private final StringProperty version = new SimpleStringProperty("—");
  private final StringProperty address = new SimpleStringProperty("—");
  private final StringProperty database = new SimpleStringProperty("—");
  private final StringProperty dataDirectory = new SimpleStringProperty("—");
  private final StringProperty mode = new SimpleStringProperty("—");

  /** Shows the facts of {@code opened}, a session to {@code target}; memory only, so on the FX thread. */
  void show(Session opened, Target target) {
    ServerInfo info = opened.server();
    version.set("ClickHouse " + info.version());
    address.set(info.address() + (info.tls() ? " (TLS)" : ""));
    database.set(info.database() + " (" + info.databaseEngine() + "), user " + info.user());
    mode.set(opened.embedded().isPresent()
        ? (startedHere(opened.embedded().get()) ? "Embedded, started by this console"
            : "Embedded, shared with another Cutover process")
        : target instanceof Target.Saved saved
            ? "Saved profile " + saved.profile().name() + ", " + saved.profile().describePassword()
            : "Server given by JDBC URL");
    dataDirectory.set(opened.embedded().map(e -> e.dataDirectory().toString()).orElse("— (not embedded)"));
  }

  /** Whether this process started the server: this session, or another of this console's (the demo's) did. */
  private static boolean startedHere(EmbeddedEngine server) {
    return server.owner() || ProcessHandle.of(server.pid()).flatMap(ProcessHandle::parent)
        .map(parent -> parent.pid() == ProcessHandle.current().pid()).orElse(false);
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

  /** Embedded (started here or shared), a saved profile with where its password comes from, or a JDBC URL. */
  public ReadOnlyStringProperty modeProperty() {
    return mode;
  }
}
