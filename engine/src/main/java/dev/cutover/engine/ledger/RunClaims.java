package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.sql.NameClaims;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The claims that make a run's state change a compare-and-set. Each record of a run has a step;
 * moving the run from step N claims the name {@code run__<id>__s<N+1>}, and only the writer that
 * made that claim writes step N + 1. The claim's note holds the state it moves to and when, so a
 * loser can be told what the run now is, and a claim whose writer died before writing its row can
 * be recognised by its age.
 */
final class RunClaims {

  /** Claims of older steps kept: a writer that read step N may still be about to claim N + 1. */
  private static final int KEEP = 2;

  private final NameClaims claims;

  RunClaims(Sql sql, Identifier database) {
    this.claims = new NameClaims(sql, database);
  }

  /** The state a claim moved to, as its note says. */
  record Note(RunState to, Instant at) {
    String text() {
      return to.name() + " " + at.toEpochMilli();
    }

    static Optional<Note> parse(String text) {
      String[] parts = text.split(" ");
      try {
        return Optional.of(new Note(RunState.valueOf(parts[0]), Instant.ofEpochMilli(Long.parseLong(parts[1]))));
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }
  }

  /** Claims step {@code step} of the run for a move to {@code to}; false when another writer has it. */
  boolean claim(String runId, long step, RunState to) {
    return claims.claim("move run " + runId + " to " + to.name().toLowerCase(Locale.ROOT), name(runId, step),
        new Note(to, Instant.now()).text());
  }

  /** What the claim of that step says, when it exists and can be read. */
  Optional<Note> note(String runId, long step) {
    return claims.find("read the claim on run " + runId, name(runId, step)).flatMap(c -> Note.parse(c.note()));
  }

  /**
   * Withdraws a claim whose writer never wrote its step: it is older than {@code after} and the
   * run's record is still at the step before. The writer failed between its two statements (the
   * server went away, or its process died), and without this the run could never move again.
   */
  boolean withdrawAbandoned(String runId, long step, Duration after) {
    Optional<Note> note = note(runId, step);
    if (note.isPresent() && note.get().at().plus(after).isAfter(Instant.now())) {
      return false;
    }
    claims.dropQuietly(name(runId, step));
    return true;
  }

  /** Drops a claim this writer made but may not use (it read a step older than the claims kept). */
  void withdraw(String runId, long step) {
    claims.dropQuietly(name(runId, step));
  }

  /**
   * Drops the claims no writer can still contend for. A run that succeeded never moves again, so it
   * keeps none.
   */
  void forget(String runId, long step, RunState now) {
    long keepFrom = now == RunState.SUCCEEDED ? Long.MAX_VALUE : step - KEEP + 1;
    String prefix = prefix(runId);
    for (NameClaims.Claim c : claims.list("list the claims on run " + runId, prefix)) {
      long claimed = stepOf(c.name(), prefix);
      if (claimed >= 0 && claimed < keepFrom) {
        claims.dropQuietly(c.name());
      }
    }
  }

  private static long stepOf(String name, String prefix) {
    try {
      return Long.parseLong(name.substring(prefix.length()));
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private static String prefix(String runId) {
    return "run__" + runId + "__s";
  }

  static String name(String runId, long step) {
    return prefix(runId) + step;
  }
}
