package dev.cutover.ui.connection;

import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.tasks.TaskExecutor;
import java.nio.file.Path;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The saved connection profiles as the connection screen shows them, on the FX thread, and where
 * they are kept. {@link ProfilesController} reads and writes them off the FX thread and writes here.
 */
public final class Profiles {

  private final Path file;
  private final Activity activity;
  private final ObservableList<SavedProfile> saved = FXCollections.observableArrayList();

  Profiles(Path file, TaskExecutor executor) {
    this.file = file;
    this.activity = new Activity(executor);
  }

  /** The profiles as read or written now. */
  void read(List<SavedProfile> list) {
    saved.setAll(list);
  }

  public ObservableList<SavedProfile> saved() {
    return saved;
  }

  public Activity activity() {
    return activity;
  }

  /** Where the profiles are kept, for the screen's hint. */
  public String file() {
    return file.toString();
  }

  List<SavedProfile> current() {
    return List.copyOf(saved);
  }
}
