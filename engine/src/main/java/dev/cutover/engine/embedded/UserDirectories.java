package dev.cutover.engine.embedded;

import java.nio.file.Path;

/** The per-user folders Cutover uses, following the XDG base directory conventions. */
public final class UserDirectories {

  private UserDirectories() {}

  /** {@code $XDG_CACHE_HOME/cutover}, by default {@code ~/.cache/cutover}: things that can be fetched again. */
  public static Path cache() {
    return base("XDG_CACHE_HOME", ".cache").resolve("cutover");
  }

  /** {@code $XDG_DATA_HOME/cutover}, by default {@code ~/.local/share/cutover}: data worth keeping. */
  public static Path data() {
    return base("XDG_DATA_HOME", ".local/share").resolve("cutover");
  }

  /** {@code $XDG_CONFIG_HOME/cutover}, by default {@code ~/.config/cutover}: saved profiles. */
  public static Path config() {
    return base("XDG_CONFIG_HOME", ".config").resolve("cutover");
  }

  /** Where the embedded server keeps its data unless told otherwise. */
  public static Path embeddedData() {
    return data().resolve("embedded");
  }

  private static Path base(String variable, String fallback) {
    String value = System.getenv(variable);
    if (value != null && !value.isBlank() && Path.of(value).isAbsolute()) {
      return Path.of(value);
    }
    return Path.of(System.getProperty("user.home")).resolve(fallback);
  }
}
