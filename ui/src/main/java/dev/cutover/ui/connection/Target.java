package dev.cutover.ui.connection;

import dev.cutover.engine.api.SavedProfile;

/** Something the console can connect to: the target it was launched with, or a saved profile. */
public sealed interface Target {

  /** The name shown in the chooser. */
  String label();

  /** The target given when the console was launched: the embedded server, or a JDBC URL. */
  record Launch(String label) implements Target {
    @Override
    public String toString() {
      return label;
    }
  }

  /** A saved connection profile. */
  record Saved(SavedProfile profile) implements Target {
    @Override
    public String label() {
      return profile.describe();
    }

    @Override
    public String toString() {
      return label();
    }
  }
}
