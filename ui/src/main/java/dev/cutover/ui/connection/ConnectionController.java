package dev.cutover.ui.connection;

import dev.cutover.ui.ConsoleStartup;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.ScreenController;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The connection screen's steps: connecting (through {@link SessionLifetime}), the saved profiles
 * (through {@link ProfilesController}), and choosing and loading the spec, read again after a
 * reconnect (through {@link SpecController}).
 */
public final class ConnectionController implements ScreenController {

  private final ConnectionModel model;
  private final SessionLifetime sessions;
  private final SpecChoice choice;
  private final SpecController spec;
  private final ProfilesController profiles;

  public ConnectionController(ConsoleStartup startup, Workspace workspace) {
    this.choice = new SpecChoice(workspace, startup.defaultSpec());
    this.spec = new SpecController(choice, workspace);
    Profiles saved = new Profiles(startup.profiles().file(), workspace.executor());
    this.profiles = new ProfilesController(saved, startup.profiles(), workspace.dialogs());
    this.model = new ConnectionModel(workspace, startup.target(), choice, saved);
    this.sessions = new SessionLifetime(startup, model, spec);
    profiles.reload();
  }

  /** Connects to the chosen target, with a new session. */
  public void connect() {
    sessions.connect();
  }

  /** Asks for a new profile and selects it once saved. */
  public void newProfile() {
    profiles.create(p -> model.select(p.name()));
  }

  /** Edits the selected profile. */
  public void editProfile() {
    if (model.selectedProperty().get() instanceof Target.Saved saved) {
      profiles.edit(saved.profile(), p -> model.select(p.name()));
    }
  }

  /** Deletes the selected profile and selects the launch target. */
  public void deleteProfile() {
    if (model.selectedProperty().get() instanceof Target.Saved saved) {
      profiles.delete(saved.profile(), () -> model.selectedProperty().set(model.launch()));
    }
  }

  /** Asks for a spec file and loads it. */
  public void chooseSpec() {
    spec.choose();
  }

  /** Loads and validates the spec named in the field, in the background. */
  public void loadSpec() {
    spec.load();
  }

  /** Reads the spec file again after a reconnect and checks it on the server; an unchanged spec is kept as it is. */
  @Override
  public void reread() {
    spec.reread();
  }

  @Override
  public ObservableBooleanValue reading() {
    return choice.loading().runningProperty();
  }

  public ConnectionModel model() {
    return model;
  }

  /** The console's session: open now, closed when the console closes. */
  public SessionLifetime sessions() {
    return sessions;
  }
}
