package dev.cutover.ui.connection;

import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.tasks.TaskExecutor;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The saved connection profiles as the connection screen shows them: read and written off the FX
 * thread, created, edited and deleted through the operator's dialogs.
 */
public final class Profiles {

  private final ProfileStore store;
  private final DialogService dialogs;
  private final Activity activity;
  private final ObservableList<SavedProfile> saved = FXCollections.observableArrayList();

  Profiles(ProfileStore store, DialogService dialogs, TaskExecutor executor) {
    this.store = store;
    this.dialogs = dialogs;
    this.activity = new Activity(executor);
  }

  /** Reads the saved profiles in the background. */
  void reload() {
    activity.run("read the saved profiles", p -> store.list(), saved::setAll);
  }

  /** Asks for a new profile, saves it, and hands it to {@code saved} once written. */
  void create(Consumer<SavedProfile> then) {
    dialogs.editProfile(Optional.empty()).ifPresent(p -> save(p, Optional.empty(), then));
  }

  /** Edits a profile (it may be renamed), saves it, and hands the new version to {@code then}. */
  void edit(SavedProfile existing, Consumer<SavedProfile> then) {
    dialogs.editProfile(Optional.of(existing)).ifPresent(p -> save(p, Optional.of(existing.name()), then));
  }

  /** Deletes a profile once the operator confirmed. */
  void delete(SavedProfile profile, Runnable then) {
    if (dialogs.confirmDeleteProfile(profile)) {
      activity.run("delete the profile " + profile.name(), p -> {
        store.delete(profile.name());
        return store.list();
      }, list -> {
        saved.setAll(list);
        then.run();
      });
    }
  }

  private void save(SavedProfile profile, Optional<String> previousName, Consumer<SavedProfile> then) {
    activity.run("save the profile " + profile.name(), p -> {
      store.save(profile, previousName);
      return store.list();
    }, list -> {
      saved.setAll(list);
      then.accept(profile);
    });
  }

  public ObservableList<SavedProfile> saved() {
    return saved;
  }

  public Activity activity() {
    return activity;
  }

  /** Where the profiles are kept, for the screen's hint. */
  public String file() {
    return store.file().toString();
  }

  List<SavedProfile> current() {
    return List.copyOf(saved);
  }
}
