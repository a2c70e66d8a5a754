package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.SavedProfile;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The connection screen's state: what it connects to (the launch target or a saved profile), how
 * far it got, what it found, and which spec the console works on.
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
  private final Profiles profiles;
  private final Target.Launch launch;
  private final ObservableList<Target> targets = FXCollections.observableArrayList();
  private final ObjectProperty<Target> selected = new SimpleObjectProperty<>();
  private final ObjectProperty<Target> connectedTo = new SimpleObjectProperty<>();
  private volatile Session session;
  private volatile Session launchSession;

  public ConnectionModel(ConsoleStartup startup, Workspace workspace) {
    this.startup = startup;
    this.workspace = workspace;
    this.executor = workspace.executor();
    this.specLoading = new Activity(executor);
    this.profiles = new Profiles(startup.profiles(), workspace.dialogs(), executor);
    this.launch = new Target.Launch(startup.target());
    startup.defaultSpec().ifPresent(p -> specFile.set(p.toString()));
    profiles.saved().addListener((javafx.collections.ListChangeListener<SavedProfile>) c -> rebuildTargets());
    rebuildTargets();
    profiles.reload();
  }

  /** Connects to the chosen target in the background; safe to call again after a failure. */
  public void connect() {
    Target target = selected.get() == null ? launch : selected.get();
    if (workspace.drivingProperty().get() && !target.equals(connectedTo.get())) {
      error.set("This console drives a backfill run; pause or cancel it on the Backfill screen before connecting "
          + "to another server.");
      return;
    }
    // A password asked for now stays in memory for the session: the pool opens connections later too.
    java.util.function.Supplier<char[]> password = () -> new char[0];
    if (target instanceof Target.Saved saved && saved.profile().password() == SavedProfile.Password.ASK) {
      Optional<char[]> typed = workspace.dialogs().askPassword(saved.profile());
      if (typed.isEmpty()) {
        return;
      }
      char[] secret = typed.get();
      password = secret::clone;
    }
    java.util.function.Supplier<char[]> asked = password;
    String where = target instanceof Target.Saved saved ? saved.profile().describe() : startup.target();
    if (!target.equals(connectedTo.get())) {
      // The screens past this one work on the new server only once it answers, with the spec checked there.
      connectedTo.set(null);
      workspace.specProperty().set(null);
      workspace.engineProperty().set(null);
      workspace.demoProperty().set(null);
    }
    state.set(State.CONNECTING);
    error.set("");
    step.set("Connecting to " + where);
    statusLine.set("Connecting to " + where + "…");
    Session previous = session;
    executor.submit(
        progress -> {
          Session opened = switch (target) {
            case Target.Launch l -> launchSession(progress);
            case Target.Saved saved -> Session.connect(saved.profile().connectionProfile(asked));
          };
          if (previous != null && previous != opened && previous != launchSession) {
            previous.close();
          }
          return new Opened(opened, new Engine(opened.database()), target);
        },
        this::connected,
        this::failed);
  }

  /** The session of the launch target, opened once and kept while the console runs (the demo shares its server). */
  private Session launchSession(TaskExecutor.Progress progress) {
    synchronized (this) {
      if (launchSession == null) {
        launchSession = startup.connector().open((message, done, total) ->
            progress.update(message, total > 0 ? (double) done / total : -1));
      }
      return launchSession;
    }
  }

  private record Opened(Session session, Engine engine, Target target) {}

  private void connected(Opened result) {
    Session opened = result.session();
    session = opened;
    connectedTo.set(result.target());
    ServerInfo info = opened.server();
    version.set("ClickHouse " + info.version());
    address.set(info.address() + (info.tls() ? " (TLS)" : ""));
    database.set(info.database() + " (" + info.databaseEngine() + "), user " + info.user());
    mode.set(opened.embedded().isPresent()
        ? (startedHere(opened.embedded().get()) ? "Embedded, started by this console"
            : "Embedded, shared with another Cutover process")
        : result.target() instanceof Target.Saved saved
            ? "Saved profile " + saved.profile().name() + ", " + saved.profile().describePassword()
            : "Server given by JDBC URL");
    dataDirectory.set(opened.embedded().map(e -> e.dataDirectory().toString()).orElse("— (not embedded)"));
    step.set("");
    state.set(State.CONNECTED);
    sessionText = opened.describe();
    statusLine.set(sessionText + " · no spec loaded");
    workspace.demoProperty().set(result.target() instanceof Target.Launch ? startup.demo().orElse(null) : null);
    // A new session each time: the engine must not keep the pool of a session closed by this reconnect.
    workspace.engineProperty().set(result.engine());
    if (!specFile.get().isBlank() && workspace.spec() == null) {
      loadSpec();
    }
  }

  /** Whether this process started the server: this session, or another of this console's (the demo's) did. */
  private static boolean startedHere(dev.cutover.engine.embedded.EmbeddedServer server) {
    return server.owner() || ProcessHandle.of(server.pid()).flatMap(ProcessHandle::parent)
        .map(parent -> parent.pid() == ProcessHandle.current().pid()).orElse(false);
  }

  /** Asks for a new profile and selects it once saved. */
  public void newProfile() {
    profiles.create(p -> select(p.name()));
  }

  /** Edits the selected profile. */
  public void editProfile() {
    if (selected.get() instanceof Target.Saved saved) {
      profiles.edit(saved.profile(), p -> select(p.name()));
    }
  }

  /** Deletes the selected profile and selects the launch target. */
  public void deleteProfile() {
    if (selected.get() instanceof Target.Saved saved) {
      profiles.delete(saved.profile(), () -> selected.set(launch));
    }
  }

  private void select(String profileName) {
    targets.stream().filter(t -> t instanceof Target.Saved s && s.profile().name().equals(profileName)).findFirst()
        .ifPresent(selected::set);
  }

  private void rebuildTargets() {
    Target was = selected.get();
    List<Target> all = new ArrayList<>();
    all.add(launch);
    profiles.saved().forEach(p -> all.add(new Target.Saved(p)));
    targets.setAll(all);
    String name = was instanceof Target.Saved s ? s.profile().name() : null;
    selected.set(all.stream().filter(t -> t instanceof Target.Saved s && s.profile().name().equals(name)).findFirst()
        .orElse(was instanceof Target.Saved ? launch : (was == null ? launch : was)));
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

  /** Closes the sessions (and stops an embedded server this console started). Blocking: call off the FX thread. */
  public void closeSession() {
    Session open = session;
    Session launched = launchSession;
    session = null;
    launchSession = null;
    if (open != null && open != launched) {
      open.close();
    }
    if (launched != null) {
      launched.close();
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

  /** What the chooser offers: the launch target first, then the saved profiles by name. */
  public ObservableList<Target> targets() {
    return targets;
  }

  public ObjectProperty<Target> selectedProperty() {
    return selected;
  }

  /** The target of the open session, or null while there is none. */
  public ReadOnlyObjectProperty<Target> connectedToProperty() {
    return connectedTo;
  }

  public Profiles profiles() {
    return profiles;
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
