package dev.cutover.engine.embedded;

import dev.cutover.engine.api.InvalidInputException;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The per-user folders Cutover uses, following the XDG base directory conventions. A variable that is
 * set but empty, or that holds a relative path, is refused rather than replaced by the default: the
 * specification calls a relative path invalid, and an empty value is most often a script's variable
 * that was never set, whose author meant a folder of their own and not the user's real one. A home
 * folder that is not an absolute path (Java says {@code ?} for a user with no entry in the password
 * file) is refused too: resolved against it, every folder would land in the working directory.
 */
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
    return base(System::getenv, System.getProperty("user.home"), variable, fallback);
  }

  /**
   * The folder {@code variable} names, or {@code fallback} under {@code home} when it is not set.
   *
   * @throws InvalidInputException when the variable is set but empty or relative, or the home folder is
   *     needed and is not an absolute path; the field is the variable's name (or {@code HOME})
   */
  static Path base(Function<String, String> environment, String home, String variable, String fallback) {
    String value = environment.apply(variable);
    if (value != null) {
      if (value.isBlank()) {
        throw new InvalidInputException(variable, "$" + variable + " is set but empty: an unset variable in a "
            + "script? Set it to an absolute folder, or unset it (unset " + variable + ") for ~/" + fallback + ".");
      }
      if (!Path.of(value).isAbsolute()) {
        throw new InvalidInputException(variable, "$" + variable + " is '" + value + "', a relative path, which the "
            + "XDG base directory specification does not allow (it would name a different folder in every working "
            + "directory); set it to an absolute folder, or unset it for ~/" + fallback + ".");
      }
      return Path.of(value);
    }
    if (home == null || home.isBlank() || !Path.of(home).isAbsolute()) {
      throw new InvalidInputException("HOME", "The home folder is " + (home == null || home.isBlank() ? "not known"
          : "'" + home + "', not an absolute path") + ", so ~/" + fallback + " cannot be found; set HOME to your "
          + "home folder, or set " + variable + " to an absolute folder.");
    }
    return Path.of(home).resolve(fallback);
  }
}
