package dev.cutover.app.demo;

import picocli.CommandLine.Option;

/** The options that shape a new world, shared by {@code seed} and {@code reset}. */
public final class SeedArguments {

  @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
      description = "Seed of every hash that makes the world; the same seed makes the same world (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--scale", paramLabel = "N", defaultValue = "1",
      description = "Volume: 1 makes about 5 million trades over six months; 0.1 a tenth of that (default: ${DEFAULT-VALUE}).")
  double scale;

  @Option(names = "--history-days", paramLabel = "DAYS", defaultValue = "183",
      description = "Days of history before the live job takes over (default: ${DEFAULT-VALUE}, six months).")
  int historyDays;

  @Option(names = "--end", paramLabel = "HOUR",
      description = "Last hour of history, exclusive, in UTC such as 2026-11-29T10:00 (default: the current hour).")
  String end;

  @Option(names = "--bug-days", paramLabel = "DAYS", defaultValue = "0",
      description = "Ship the fee bug only this many days before the end of history: v1 is correct before, so a "
          + "bounded repair (--affected) of those days suffices (default: the bug is in the whole history).")
  int bugDays;

  @Option(names = "--live", paramLabel = "job|mv", defaultValue = "job",
      description = "Who writes v1: 'job', a live job outside the database that replaces each hour (demo live), or "
          + "'mv', a materialized view on trades that appends to a SummingMergeTree, repaired with deploy-live "
          + "(default: ${DEFAULT-VALUE}).")
  String live;

  /** Validates everything before anything is written. */
  SeedOptions options() {
    boolean viewFed = switch (live) {
      case "job" -> false;
      case "mv" -> true;
      default -> throw new dev.cutover.engine.api.InvalidInputException("live", "--live " + live + " is not a kind "
          + "of live writer; give 'job' (a live job outside the database) or 'mv' (a materialized view).");
    };
    return new SeedOptions(seed, scale, historyDays, end == null ? null : Hours.parse("end", end), bugDays, viewFed);
  }
}
