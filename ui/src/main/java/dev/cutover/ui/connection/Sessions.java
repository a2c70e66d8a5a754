package dev.cutover.ui.connection;

import dev.cutover.engine.Session;
import dev.cutover.ui.Workspace;
import java.util.ArrayList;
import java.util.List;

/**
 * The console's sessions: the one it works on now, and those a reconnect replaced. A replaced
 * session is closed in the background, but only once no backfill run this console drives may still
 * use it: a run keeps the engine it started with, and closing its pool under it would fail a run that
 * could have ridden out a short outage.
 */
final class Sessions {

  private final Workspace workspace;
  private final List<Session> retired = new ArrayList<>();
  private volatile Session current;

  Sessions(Workspace workspace) {
    this.workspace = workspace;
    workspace.drivingProperty().addListener((o, was, driving) -> {
      if (!driving) {
        closeRetired();
      }
    });
  }

  /** The session open now, or null. */
  Session current() {
    return current;
  }

  /** Makes {@code fresh} the session of the console; the one it replaces is retired. On the FX thread. */
  void replace(Session fresh) {
    Session previous = current;
    current = fresh;
    if (previous != null && previous != fresh) {
      synchronized (retired) {
        retired.add(previous);
      }
      closeRetired();
    }
  }

  private void closeRetired() {
    List<Session> closing;
    synchronized (retired) {
      if (workspace.drivingProperty().get() || retired.isEmpty()) {
        return;
      }
      closing = List.copyOf(retired);
      retired.clear();
    }
    workspace.executor().submit(p -> {
      closing.forEach(Session::close);
      return closing.size();
    }, (message, fraction) -> {}, closed -> {}, failure -> {});
  }

  /** Closes every session, the current one last. Blocking: off the FX thread, when the console closes. */
  void closeAll() {
    Session open = current;
    current = null;
    List<Session> old;
    synchronized (retired) {
      old = List.copyOf(retired);
      retired.clear();
    }
    old.forEach(Session::close);
    if (open != null) {
      open.close();
    }
  }
}
