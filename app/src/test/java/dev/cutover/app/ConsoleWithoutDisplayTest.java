package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./cutover} over SSH, with no display: one sentence and exit code 7, not a stack trace. */
class ConsoleWithoutDisplayTest {

  @TempDir Path home;

  private ChildRun console(String display) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("DISPLAY", display);
    env.put("WAYLAND_DISPLAY", null);
    env.put("XDG_DATA_HOME", home.resolve("data").toString());
    env.put("XDG_CONFIG_HOME", home.resolve("config").toString());
    env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
    return ChildRun.of(home, env, List.of("--data-dir", home.resolve("embedded").toString()));
  }

  @Test
  void withoutADisplayTheConsoleSaysWhatToDoInOneSentence() throws Exception {
    ChildRun run = console(null);
    assertEquals(ExitCodes.NO_DESKTOP, run.exit(), run.out() + run.err());
    assertEquals("", run.out());
    assertEquals("error: The console needs a desktop session, and this session has no display (DISPLAY is not "
        + "set): use the command line instead (./cutover --help lists its commands), or run the console under a "
        + "virtual display with xvfb-run ./cutover.\n", run.err());
    assertFalse(Files.exists(home.resolve("embedded")), "no server was started for a console that cannot open");
  }

  @Test
  void aDisplayThatCannotBeOpenedIsSaidTheSameWay() throws Exception {
    ChildRun run = console(":93");
    assertEquals(ExitCodes.NO_DESKTOP, run.exit(), run.out() + run.err());
    assertTrue(run.err().contains("error: The console needs a desktop session, and the display :93 cannot be "
        + "opened: use the command line instead (./cutover --help"), run.err());
    assertFalse(run.err().contains("Exception") || run.err().contains("\tat "), run.err());
  }

  @Test
  void aMachineWithoutGtkIsToldToInstallItNotToReportABug() {
    // JavaFX's own words when the GTK 3 library is missing; a display that cannot be opened names DISPLAY.
    assertEquals(java.util.Optional.of("The console draws its window with GTK 3, which this machine does not have "
        + "(JavaFX could not load its GTK library): install it (libgtk-3-0 on Debian and Ubuntu), or use the command "
        + "line instead (./cutover --help lists its commands)."),
        DesktopSession.windowFailure("Unable to load glass GTK library.", ":0", "./cutover"));
    assertEquals(java.util.Optional.of(DesktopSession.unreachable(":93", "./cutover")),
        DesktopSession.windowFailure("Unable to open DISPLAY", ":93", "./cutover"));
    assertEquals(java.util.Optional.empty(), DesktopSession.windowFailure("something else", ":0", "./cutover"),
        "any other failure stays an internal error, with its stack trace");
  }
}
