package dev.cutover.app.output;

import dev.cutover.engine.api.InvalidInputException;
import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine.Option;

/** {@code --progress auto|bar|plain|json|none}, for the commands that run long steps. */
public final class ProgressOptions {

  @Option(names = "--progress", paramLabel = "MODE", defaultValue = "auto",
      description = "How long steps report on stderr: auto (a live bar on a terminal, plain lines otherwise), bar, "
          + "plain, json (one JSON event per line; see docs/JSON.md) or none. Default: ${DEFAULT-VALUE}.")
  String mode = "auto";

  /** Where {@code command}'s progress goes, as the option says; refuses an unknown mode before anything runs. */
  public ProgressOutput open(String command, PrintWriter err) {
    return switch (mode.toLowerCase(Locale.ROOT)) {
      case "auto" -> terminal() ? bar() : new LineProgress(err);
      case "bar" -> bar();
      case "plain" -> new LineProgress(err);
      case "json" -> new JsonProgress(err, command);
      case "none" -> ProgressOutput.NONE;
      default -> throw new InvalidInputException("progress", "--progress is '" + mode + "'; give auto, bar, plain, "
          + "json or none.");
    };
  }

  private static ProgressOutput bar() {
    int columns = 100;
    try {
      String env = System.getenv("COLUMNS");
      columns = env == null ? columns : Math.max(40, Integer.parseInt(env.strip()) - 1);
    } catch (NumberFormatException e) {
      // keep the default width
    }
    return new BarProgress(System.err, columns);
  }

  /** Whether a person watches: since JDK 22 there is a console even without a terminal, so ask it. */
  static boolean terminal() {
    java.io.Console console = System.console();
    return console != null && console.isTerminal();
  }
}
