package dev.cutover.ui.backfill;

import dev.cutover.ui.DemoControls;
import dev.cutover.ui.DemoControls.LiveJobState;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The demo's live job on the backfill screen: whether it runs, in words, and the one button that
 * starts or stops it. Nothing starts it but that button: opening the console on the demo world leaves
 * the job as it found it.
 */
public final class DemoLive {

  private final Workspace workspace;
  private final Activity activity;
  private final BooleanProperty running = new SimpleBooleanProperty();
  private final StringProperty words = new SimpleStringProperty("");

  DemoLive(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    refresh();
  }

  /** Reads the job's state from the demo controls: memory only, so on the FX thread. */
  public void refresh() {
    workspace.demo().ifPresent(d -> show(d.liveJob()));
  }

  /** Starts the job when it is stopped, stops it when it runs, in the background. */
  public void toggle() {
    DemoControls demo = workspace.demo().orElse(null);
    if (demo == null || activity.running()) {
      return;
    }
    boolean stop = running.get();
    activity.run(stop ? "stop the demo's live job" : "start the demo's live job", p -> {
      if (stop) {
        demo.stopLiveJob();
      } else {
        demo.startLiveJob();
      }
      return demo.liveJob();
    }, this::show, failure -> refresh());
  }

  private void show(LiveJobState s) {
    running.set(s.running());
    words.set(s.running() ? "The demo's live job runs: v1 gets its hours as they close."
        : "The demo's live job is stopped: nothing here writes the demo world."
            + (s.problem().isEmpty() ? "" : " Its last step failed: " + s.problem()));
  }

  public ReadOnlyBooleanProperty runningProperty() {
    return running;
  }

  public ReadOnlyStringProperty wordsProperty() {
    return words;
  }

  public Activity activity() {
    return activity;
  }
}
