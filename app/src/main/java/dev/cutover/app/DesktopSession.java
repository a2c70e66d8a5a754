package dev.cutover.app;

import java.util.Optional;
import java.util.function.Function;

/**
 * Whether this process can open the console's window. JavaFX on Linux draws through X11 (on Wayland through
 * XWayland), so without {@code DISPLAY} there is no window to open: an SSH session, a container, a cron job.
 * Saying so before JavaFX starts turns its stack trace into one sentence that offers the two ways on.
 */
final class DesktopSession {

  private DesktopSession() {}

  /** The sentence to print when no display is set; empty when one is, or when JavaFX is told to draw
   * elsewhere (-Dglass.platform=Monocle for headless tests). */
  static Optional<String> missing(Function<String, String> environment, String launcher) {
    String display = environment.apply("DISPLAY");
    String platform = System.getProperty("glass.platform", "gtk");
    if ((display != null && !display.isBlank()) || !platform.equalsIgnoreCase("gtk")) {
      return Optional.empty();
    }
    return Optional.of(sentence("this session has no display (DISPLAY is not set)", launcher));
  }

  /** The sentence for a display that is set but cannot be opened, as JavaFX reports it. */
  static String unreachable(String display, String launcher) {
    return sentence("the display " + display + " cannot be opened", launcher);
  }

  /**
   * The sentence for a failure of JavaFX to open the window, or empty when it is not one this class
   * knows: a display that cannot be opened, or a machine without the GTK 3 library JavaFX draws with.
   */
  static Optional<String> windowFailure(String message, String display, String launcher) {
    if (message == null) {
      return Optional.empty();
    }
    if (message.contains("DISPLAY")) {
      return Optional.of(unreachable(display, launcher));
    }
    if (message.contains("GTK")) {
      return Optional.of("The console draws its window with GTK 3, which this machine does not have (JavaFX could "
          + "not load its GTK library): install it (libgtk-3-0 on Debian and Ubuntu), or use the command line "
          + "instead (" + launcher + " --help lists its commands).");
    }
    return Optional.empty();
  }

  private static String sentence(String why, String launcher) {
    return "The console needs a desktop session, and " + why + ": use the command line instead ("
        + launcher + " --help lists its commands), or run the console under a virtual display with xvfb-run "
        + launcher + ".";
  }

  /** How the operator started Cutover, for the sentence: ./cutover from a checkout, bin/cutover from the image. */
  static String launcher() {
    return System.getProperty("cutover.launcher", "./cutover");
  }
}
