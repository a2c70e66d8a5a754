package dev.cutover.app.cli;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.InvalidInputException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The text of {@code --data-dir}, checked before anything reads or writes a folder. An empty value is
 * refused, never taken as the working directory: it is what a script passes when its variable was never
 * set, and the working directory (a checkout, a home folder) would have been made the server's store and
 * owner-only. A relative path is refused too, not resolved: a command run from another folder would use
 * another data directory (another server, another repair's state) without a word, and a {@code ~} that the
 * shell left unexpanded after {@code --data-dir=} would become a folder named {@code ~}.
 */
final class DataDirOption {

  private DataDirOption() {}

  /**
   * The data directory {@code text} names, absolute.
   *
   * @param defaultDataDir the default, named in the sentence that refuses an empty value
   * @throws InvalidInputException (field {@code data-dir}) when it is empty, blank, relative or not a path
   */
  static Path check(String text, Supplier<Path> defaultDataDir) {
    if (text.isBlank()) {
      throw new InvalidInputException("data-dir", "--data-dir is empty: an unset variable in a script? Give a "
          + "directory, or leave the option out for " + shown(defaultDataDir) + ".");
    }
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw new InvalidInputException("data-dir", "--data-dir is not a path (" + e.getReason() + "); give the "
          + "absolute path of a directory.");
    }
    if (path.isAbsolute()) {
      return path;
    }
    String home = System.getProperty("user.home", "");
    if ((text.equals("~") || text.startsWith("~/")) && !home.isBlank() && Path.of(home).isAbsolute()) {
      String rest = text.equals("~") ? "" : text.substring(2);
      throw new InvalidInputException("data-dir", "--data-dir '" + text + "' starts with '~', which the shell "
          + "expands only at the start of a word (not after '='); give " + Path.of(home).resolve(rest) + ".");
    }
    throw new InvalidInputException("data-dir", "--data-dir '" + text + "' is a relative path: a command run from "
        + "another directory would use another data directory. Give an absolute path, such as "
        + Path.of("").toAbsolutePath().resolve(path).normalize() + ".");
  }

  /** The default data directory as a sentence names it: its path, or where it would be when it is refused. */
  private static String shown(Supplier<Path> defaultDataDir) {
    try {
      return defaultDataDir.get().toString();
    } catch (CutoverException unusable) {
      return "the default, $XDG_DATA_HOME/cutover/embedded (~/.local/share/cutover/embedded)";
    }
  }
}
