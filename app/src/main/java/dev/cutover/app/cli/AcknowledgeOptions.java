package dev.cutover.app.cli;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The dependents a preflight's side-effects check may let through: each named with {@code --acknowledge},
 * and one {@code --reason} for all of them, which the backfill writes to the audit trail when it starts.
 */
public final class AcknowledgeOptions {

  @Option(names = "--acknowledge", paramLabel = "DB.TABLE", description = "A dependent (materialized view, alert, …) "
      + "reviewed and accepted to see the replayed history; repeatable; needs --reason.")
  List<String> names = new ArrayList<>();

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why replaying history through the acknowledged "
      + "dependents is safe; one line, at most " + AcknowledgedDependent.MAX_REASON + " characters. The backfill "
      + "writes it to the audit trail, with your name, before any hour.")
  String reason;

  /**
   * The acknowledgements as the engine takes them.
   *
   * @throws InvalidInputException when {@code --acknowledge} comes without {@code --reason} or the other way
   *     round, or the reason is blank, too long or on several lines
   */
  List<AcknowledgedDependent> list() {
    if (names.isEmpty()) {
      if (reason != null) {
        throw new InvalidInputException("reason", "--reason is the reason for --acknowledge; name the dependent it is "
            + "for with --acknowledge DB.TABLE, or leave --reason out.");
      }
      return List.of();
    }
    if (reason == null) {
      throw new InvalidInputException("reason", "--acknowledge " + String.join(" --acknowledge ", names) + " needs "
          + "--reason TEXT: add why replaying history through " + (names.size() == 1 ? "it" : "them") + " is safe, "
          + "such as --reason \"its alerts for replayed hours are suppressed downstream\". The backfill writes it to "
          + "the audit trail, with your name, before any hour.");
    }
    return names.stream().map(n -> new AcknowledgedDependent(n, reason)).toList();
  }
}
