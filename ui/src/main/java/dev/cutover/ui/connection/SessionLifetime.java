package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.ConsoleStartup;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.connection.ConnectionModel.State;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The console's session from connect to close: every connect opens a new session; the one it
 * replaces is closed once no run this console drives uses it. While connected, a {@link
 * ConnectionWatch} probes the server and, when it is lost, opens a new session to the same target by
 * itself (for the embedded default, a new server). A password asked for stays in memory for the
 * session, for the pool and for those reconnects.
 */
public final class SessionLifetime {

  private final ConsoleStartup startup;
  private final Workspace workspace;
  private final ConnectionModel model;
  private final Sessions sessions;
  private final ConnectionWatch watch;
  private final SpecController spec;
  private Supplier<char[]> password = () -> new char[0];

  SessionLifetime(ConsoleStartup startup, ConnectionModel model, SpecController spec) {
    this.startup = startup;
    this.model = model;
    this.spec = spec;
    this.workspace = model.workspace();
    this.sessions = new Sessions(workspace);
    this.watch = workspace.connectionWatch();
  }

  /**
   * Connects to the chosen target in the background, always with a new session: to the same target
   * as now, the screens keep their spec and read everything again once it is open. Safe to call again
   * after a failure, and while the server is lost (the watch stops trying meanwhile).
   */
  void connect() {
    Target target = model.chosen();
    Target now = model.connectedToProperty().get();
    if (workspace.drivingShardsProperty().get() && !target.equals(now)) {
      model.error("A step runs on the shards of the loaded spec (a backfill, a swap or a check); wait for it, or "
          + "cancel the backfill on the Backfill screen, before connecting to another server.");
      return;
    }
    if (workspace.drivingProperty().get() && !target.equals(now)) {
      model.error("This console drives a backfill run; pause or cancel it on the Backfill screen before connecting "
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
    if (!target.equals(now)) {
      // The screens past this one work on the new server only once it answers, with the spec checked there.
      watch.forget();
      model.connectedTo().set(null);
      workspace.specProperty().set(null);
      workspace.engineProperty().set(null);
      workspace.serverProperty().set("");
      workspace.demoProperty().set(null);
    } else {
      // Same server: what the screens show stays greyed if it was lost, until the new session has read it again.
      watch.pause();
    }
    model.connecting(where);
    workspace.executor().submit(
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
    Target target = model.connectedToProperty().get();
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
    model.connected(opened, target);
    workspace.demoProperty().set(target instanceof Target.Launch ? startup.demo().orElse(null) : null);
    // A new session each time: the engine must not keep the pool of a session closed by this reconnect.
    workspace.serverProperty().set((target instanceof Target.Saved saved ? "profile " + saved.profile().name()
        + ": " : "") + opened.describe());
    workspace.engineProperty().set(engine);
    if (model.spec().named() && workspace.spec() == null) {
      spec.load();
    }
  }

  /**
   * A connect failed. When it was to the server the console was already connected to, the session it
   * has is watched again from where it stood: still answering, or lost and reconnected by itself.
   */
  private void failed(Target target, Throwable failure) {
    String sentence = failure instanceof CutoverException known
        ? known.getMessage()
        : "Cutover could not connect because of an unexpected error (" + failure + "). Try again; if it "
            + "persists, run ./cutover check in a terminal for details.";
    Session kept = sessions.current();
    if (kept != null && target.equals(model.connectedToProperty().get())) {
      ServerLink was = watch.link();
      model.failed(sentence, !was.lost() ? State.CONNECTED : was.state() == ServerLink.State.RECONNECTING
          ? State.RECONNECTING : State.LOST);
      watch.watch(kept, reopen(target, password), this::reconnected, was.state() == ServerLink.State.NONE
          ? ServerLink.connected("", java.time.Instant.now()) : was);
      return;
    }
    model.failed(sentence, State.FAILED);
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
}
