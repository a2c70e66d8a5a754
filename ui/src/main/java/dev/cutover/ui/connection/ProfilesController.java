package dev.cutover.ui.connection;

import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.dialogs.DialogService;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The saved connection profiles' steps: read and written off the FX thread, created, edited and
 * deleted through the operator's dialogs. Writes into {@link Profiles}.
 */
final class ProfilesController {

  private final Profiles profiles;
  private final ProfileStore store;
  private final DialogService dialogs;
  private final Activity activity;

  ProfilesController(Profiles profiles, ProfileStore store, DialogService dialogs) {
    this.profiles = profiles;
    this.store = store;
    this.dialogs = dialogs;
    this.activity = profiles.activity();
  }

  /** Reads the saved profiles in the background. */
  void reload() {
    activity.run("read the saved profiles", p -> store.list(), profiles::read);
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
        profiles.read(list);
        then.run();
      });
    }
  }

  private void save(SavedProfile profile, Optional<String> previousName, Consumer<SavedProfile> then) {
    activity.run("save the profile " + profile.name(), p -> {
      store.save(profile, previousName);
      return store.list();
    }, list -> {
      profiles.read(list);
      then.accept(profile);
    });
  }
}
