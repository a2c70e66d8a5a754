package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.ConsoleStartup;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.tasks.TaskExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableBooleanValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The connection screen's state: what it connects to (the launch target or a saved profile), how
 * far it got, what it found, whether the server still answers, and which spec the console works on.
 * Every connect opens a new session; the one it replaces is closed once no run this console drives
 * uses it. While connected, a {@link ConnectionWatch} probes the server and, when it is lost, opens
 * a new session to the same target by itself (for the embedded default, a new server).
 */
public final class ConnectionModel implements ScreenController {

  /** Where the connection stands. */
  public enum State {
    CONNECTING("Connecting"),
    CONNECTED("Connected"),
    LOST("Server lost"),
    RECONNECTING("Reconnecting"),
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
  private final ServerFacts facts = new ServerFacts();
  private final StringProperty statusLine = new SimpleStringProperty("");
  private final StringProperty statusTone = new SimpleStringProperty("working");
  private String sessionText = "";
  private String connectingTo = "";
  private final Workspace workspace;
  private final SpecChoice spec;
  private final Sessions sessions;
  private final Profiles profiles;
  private final Target.Launch launch;
  private final ObservableList<Target> targets = FXCollections.observableArrayList();
  private final ObjectProperty<Target> selected = new SimpleObjectProperty<>();
  private final ObjectProperty<Target> connectedTo = new SimpleObjectProperty<>();
  private final ConnectionWatch watch;
  private Supplier<char[]> password = () -> new char[0];

  public ConnectionModel(ConsoleStartup startup, Workspace workspace) {
    this.startup = startup;
    this.workspace = workspace;
    this.executor = workspace.executor();
    this.spec = new SpecChoice(workspace, startup.defaultSpec());
    this.sessions = new Sessions(workspace);
    this.profiles = new Profiles(startup.profiles(), workspace.dialogs(), executor);
    this.launch = new Target.Launch(startup.target());
    this.watch = workspace.connectionWatch();
    watch.linkProperty().addListener((o, was, link) -> linkChanged(link));
    state.addListener((o, was, is) -> status());
    spec.statusProperty().addListener((o, was, is) -> status());
    profiles.saved().addListener((javafx.collections.ListChangeListener<SavedProfile>) c -> rebuildTargets());
    rebuildTargets();
    profiles.reload();
  }

  /**
   * Connects to the chosen target in the background, always with a new session: to the same target
   * as now, the screens keep their spec and read everything again once it is open. Safe to call again
   * after a failure, and while the server is lost (the watch stops trying meanwhile).
   */
  public void connect() {
    Target target = selected.get() == null ? launch : selected.get();
    if (workspace.drivingProperty().get() && !target.equals(connectedTo.get())) {
      error.set("This console drives a backfill run; pause or cancel it on the Backfill screen before connecting "
          + "to another server.");
      return;
    }
    // A password asked for now stays in memory for the session: the pool opens connections later too, and a
    // reconnect after a lost server needs it again.
    Supplier<char[]> asked = () -> new char[0];
    if (target instanceof Target.Saved saved && saved.profile().password() == SavedProfile.Password.ASK) {
      Optional<char[]> typed = workspace.dialogs().askPassword(saved.profile());
      if (typed.isEmpty()) {
        return;
      }
      char[] secret = typed.get();
      asked = secret::clone;
    }
    Supplier<char[]> secret = asked;
    String where = target instanceof Target.Saved saved ? saved.profile().describe() : startup.target();
    if (!target.equals(connectedTo.get())) {
      // The screens past this one work on the new server only once it answers, with the spec checked there.
      watch.forget();
      connectedTo.set(null);
      workspace.specProperty().set(null);
      workspace.engineProperty().set(null);
      workspace.demoProperty().set(null);
    } else {
      // Same server: what the screens show stays greyed if it was lost, until the new session has read it again.
      watch.pause();
    }
    error.set("");
    step.set("Connecting to " + where);
    connectingTo = where;
    state.set(State.CONNECTING);
    executor.submit(
        progress -> {
          Session opened = open(target, secret, (message, done, total) ->
              progress.update(message, total > 0 ? (double) done / total : -1));
          return new Opened(opened, new Engine(opened), target, secret);
        },
        this::connected,
        failure -> failed(target, failure));
  }

  /** Opens a new session to {@code target}: for the launch target through the console's own factory. */
  private Session open(Target target, Supplier<char[]> secret, EngineProgress progress) {
    return switch (target) {
      case Target.Launch l -> startup.connector().open(progress);
      case Target.Saved saved -> Session.connect(saved.profile().connectionProfile(secret));
    };
  }

  private record Opened(Session session, Engine engine, Target target, Supplier<char[]> password) {}

  private void connected(Opened result) {
    password = result.password();
    // Answering first: a connect made while the server was lost must let the screens read on the new session.
    watch.watch(result.session(), reopen(result.target(), result.password()), this::reconnected);
    install(result.session(), result.engine(), result.target());
  }

  /** What the watch calls to open a new session to the same target after the server was lost. */
  private ConnectionWatch.Reopen reopen(Target target, Supplier<char[]> secret) {
    return attempt -> open(target, secret, EngineProgress.NONE);
  }

  /** A new session opened by the watch after the server was lost; on the FX thread. */
  private void reconnected(Session fresh) {
    Target target = connectedTo.get();
    if (target == null) {
      fresh.close();
      return;
    }
    install(fresh, new Engine(fresh), target);
  }

  /**
   * Makes {@code opened} the console's session: the one it replaces closes once no run of this console
   * uses it, and on the same target a new engine makes every screen read again (see ScreenReread).
   */
  private void install(Session opened, Engine engine, Target target) {
    sessions.replace(opened);
    connectedTo.set(target);
    facts.show(opened, target);
    step.set("");
    error.set("");
    sessionText = opened.describe();
    state.set(State.CONNECTED);
    status();
    workspace.demoProperty().set(target instanceof Target.Launch ? startup.demo().orElse(null) : null);
    // A new session each time: the engine must not keep the pool of a session closed by this reconnect.
    workspace.engineProperty().set(engine);
    if (spec.named() && workspace.spec() == null) {
      spec.load();
    }
  }

  /** The link to the server changed: the state, the status line and the connection screen's words follow. */
  private void linkChanged(ServerLink link) {
    switch (link.state()) {
      case LOST -> {
        state.set(State.LOST);
        step.set("Lost at " + Formats.clock(link.since()) + ": " + link.sentence()
            + " Cutover reconnects by itself; Connect tries at once.");
      }
      case STOPPED -> {
        state.set(State.LOST);
        step.set("Stopped at " + Formats.clock(link.since()) + ": " + link.sentence() + " "
            + ServerLink.STAYS_STOPPED);
      }
      case RECONNECTING -> {
        state.set(State.RECONNECTING);
        step.set("Lost at " + Formats.clock(link.since()) + ": " + link.sentence()
            + " Attempt " + link.attempt() + " to reconnect is under way"
            + (link.lastFailure().isEmpty() ? "." : "; the last one failed: " + link.lastFailure()));
      }
      case CONNECTED -> {
        if (state.get() == State.LOST || state.get() == State.RECONNECTING) {
          state.set(State.CONNECTED);
          step.set("");
        }
      }
      case NONE -> {}
    }
    status();
  }

  /** One line for the status bar, and its tone: green while connected, red while the server is lost. */
  private void status() {
    ServerLink link = watch.link();
    switch (state.get()) {
      case CONNECTING -> {
        // Connect pressed while the server is lost: the bar stays red and still says why until the session opens.
        statusLine.set("Connecting to " + connectingTo + "…" + (link.lost() ? " Server lost at "
            + Formats.clock(link.since()) + ": " + link.sentence() : ""));
        statusTone.set(link.lost() ? "lost" : "working");
      }
      case CONNECTED -> {
        statusLine.set(sessionText + spec.statusProperty().get());
        statusTone.set("ok");
      }
      case LOST, RECONNECTING -> {
        statusLine.set(link.words());
        statusTone.set("lost");
      }
      case FAILED -> {
        statusLine.set("Not connected");
        statusTone.set("failed");
      }
    }
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
    spec.choose();
  }

  /** Loads and validates the spec named in the field, in the background. */
  public void loadSpec() {
    spec.load();
  }

  /**
   * A connect failed. When it was to the server the console was already connected to, the session it
   * has is watched again from where it stood: still answering, or lost and reconnected by itself.
   */
  private void failed(Target target, Throwable failure) {
    step.set("");
    error.set(failure instanceof CutoverException known
        ? known.getMessage()
        : "Cutover could not connect because of an unexpected error (" + failure + "). Try again; if it "
            + "persists, run ./cutover check in a terminal for details.");
    Session kept = sessions.current();
    if (kept != null && target.equals(connectedTo.get())) {
      ServerLink was = watch.link();
      state.set(!was.lost() ? State.CONNECTED : was.state() == ServerLink.State.RECONNECTING ? State.RECONNECTING
          : State.LOST);
      watch.watch(kept, reopen(target, password), this::reconnected, was.state() == ServerLink.State.NONE
          ? ServerLink.connected("", java.time.Instant.now()) : was);
      return;
    }
    state.set(State.FAILED);
  }

  /** Called from the progress sink on the FX thread. */
  public void progress(String message) {
    if (state.get() == State.CONNECTING) {
      step.set(message);
    }
  }

  /**
   * Stops watching the server and closes every session of this console, which lets go of its lease on
   * an embedded server (the server stops by itself once no Cutover process uses it). Blocking: call off
   * the FX thread.
   */
  public void closeSession() {
    watch.pause();
    sessions.closeAll();
  }

  /** Stops probing the server: the console closes. */
  public void stopWatching() {
    watch.pause();
  }

  /** The session open now, or null: a reconnect replaces it. */
  public Session session() {
    return sessions.current();
  }

  /** Reads the spec file again after a reconnect and checks it on the server; an unchanged spec is kept as it is. */
  @Override
  public void reread() {
    spec.reread();
  }

  @Override
  public ObservableBooleanValue reading() {
    return spec.loading().runningProperty();
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

  /** What the open session found of its server. */
  public ServerFacts facts() {
    return facts;
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

  /**
   * One line for the window's status bar: where the console is connected and which spec it works on,
   * or that the server is lost, why, and how far the reconnection got.
   */
  public ReadOnlyStringProperty statusLineProperty() {
    return statusLine;
  }

  /** How the status bar looks: ok (green), working, lost (red) or failed. */
  public ReadOnlyStringProperty statusToneProperty() {
    return statusTone;
  }

  public StringProperty specFileProperty() {
    return spec.fileProperty();
  }

  public ReadOnlyStringProperty specSummaryProperty() {
    return spec.summaryProperty();
  }

  public Activity specLoading() {
    return spec.loading();
  }

  public Workspace workspace() {
    return workspace;
  }
}
