package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.InvalidInputException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cutover's per-user folders from the XDG variables: an absolute value is used, an unset one gives the
 * default under the home folder, and an empty or relative one is refused in a sentence, never replaced by a
 * folder of the working directory or silently by the default.
 */
class UserDirectoriesTest {

  private static Path base(Map<String, String> environment, String home) {
    return UserDirectories.base(environment::get, home, "XDG_DATA_HOME", ".local/share");
  }

  @Test
  void anAbsoluteValueIsUsedAndAnUnsetOneGivesTheDefaultUnderHome() {
    assertEquals(Path.of("/srv/data"), base(Map.of("XDG_DATA_HOME", "/srv/data"), "/home/ops"));
    assertEquals(Path.of("/home/ops/.local/share"), base(Map.of(), "/home/ops"));
  }

  @Test
  void anEmptyValueIsRefusedWithWhatToDo() {
    for (String empty : new String[] {"", " "}) {
      var e = assertThrows(InvalidInputException.class, () -> base(Map.of("XDG_DATA_HOME", empty), "/home/ops"));
      assertEquals("XDG_DATA_HOME", e.field());
      assertEquals("$XDG_DATA_HOME is set but empty: an unset variable in a script? Set it to an absolute folder, or "
          + "unset it (unset XDG_DATA_HOME) for ~/.local/share.", e.getMessage());
    }
  }

  @Test
  void aRelativeValueIsRefusedAsTheSpecificationSays() {
    var e = assertThrows(InvalidInputException.class, () -> base(Map.of("XDG_DATA_HOME", "data"), "/home/ops"));
    assertEquals("$XDG_DATA_HOME is 'data', a relative path, which the XDG base directory specification does not "
        + "allow (it would name a different folder in every working directory); set it to an absolute folder, or unset "
        + "it for ~/.local/share.", e.getMessage());
  }

  @Test
  void aHomeFolderThatIsNotAnAbsolutePathIsRefusedWhenTheDefaultIsNeeded() {
    // Java's user.home is "?" for a user with no entry in the password file: ~ would be the working directory.
    var e = assertThrows(InvalidInputException.class, () -> base(Map.of(), "?"));
    assertEquals("HOME", e.field());
    assertEquals("The home folder is '?', not an absolute path, so ~/.local/share cannot be found; set HOME to your "
        + "home folder, or set XDG_DATA_HOME to an absolute folder.", e.getMessage());
    assertEquals(Path.of("/srv/data"), base(Map.of("XDG_DATA_HOME", "/srv/data"), "?"), "not needed, not refused");
  }
}
