package dev.cutover.ui.connection;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the connection screen and the status bar show, on the FX thread: what the console connects
 * to (the launch target or a saved profile), how far it got, what it found, whether the server still
 * answers, and which spec the console works on. {@link SessionLifetime} opens and replaces sessions
 * and writes here; {@link ConnectionController} takes the screen's other steps.
 */
public final class ConnectionModel {

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

  private final Workspace workspace;
  private final ObjectProperty<State> state = new SimpleObjectProperty<>(State.CONNECTING);
  private final StringProperty step = new SimpleStringProperty("");
  private final StringProperty error = new SimpleStringProperty("");
  private final ServerFacts facts = new ServerFacts();
  private final StringProperty statusLine = new SimpleStringProperty("");
  private final StringProperty statusTone = new SimpleStringProperty("working");
  private String sessionText = "";
  private String connectingTo = "";
  private final SpecChoice spec;
  private final Profiles profiles;
  private final Target.Launch launch;
  private final ObservableList<Target> targets = FXCollections.observableArrayList();
  private final ObjectProperty<Target> selected = new SimpleObjectProperty<>();
  private final ObjectProperty<Target> connectedTo = new SimpleObjectProperty<>();

  ConnectionModel(Workspace workspace, String launchTarget, SpecChoice spec, Profiles profiles) {
    this.workspace = workspace;
    this.spec = spec;
    this.profiles = profiles;
    this.launch = new Target.Launch(launchTarget);
    workspace.linkProperty().addListener((o, was, link) -> linkChanged(link));
    state.addListener((o, was, is) -> status());
    spec.statusProperty().addListener((o, was, is) -> status());
    profiles.saved().addListener((javafx.collections.ListChangeListener<SavedProfile>) c -> rebuildTargets());
    rebuildTargets();
  }

  /** The target chosen, or the launch target while none is. */
  Target chosen() {
    return selected.get() == null ? launch : selected.get();
  }

  /** A connect to {@code where} began. */
  void connecting(String where) {
    error.set("");
    step.set("Connecting to " + where);
    connectingTo = where;
    state.set(State.CONNECTING);
  }

  /** The console's session is now {@code opened}, on {@code target}. */
  void connected(Session opened, Target target) {
    connectedTo.set(target);
    facts.show(opened, target);
    step.set("");
    error.set("");
    sessionText = opened.describe();
    state.set(State.CONNECTED);
    status();
  }

  /** A connect failed with {@code sentence}; the state is what the session kept (if any) says. */
  void failed(String sentence, State now) {
    step.set("");
    error.set(sentence);
    state.set(now);
  }

  /** A connect refused before it began, or the sentence of a failure. */
  void error(String sentence) {
    error.set(sentence);
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
    ServerLink link = workspace.linkProperty().get();
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

  void select(String profileName) {
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

  /** Called from the progress sink on the FX thread. */
  public void progress(String message) {
    if (state.get() == State.CONNECTING) {
      step.set(message);
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

  /** What the open session found of its server. */
  public ServerFacts facts() {
    return facts;
  }

  public String target() {
    return launch.label();
  }

  /** The launch target: the server this console was started for. */
  Target.Launch launch() {
    return launch;
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

  ObjectProperty<Target> connectedTo() {
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

  SpecChoice spec() {
    return spec;
  }

  public Workspace workspace() {
    return workspace;
  }
}
