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
 * made that claim writes step N + 1. The claim's note holds the state it moves to, when, and the
 * writer's host and process, so a loser can be told what the run now is, and a claim whose writer died
 * before writing its row can be recognised: at once when that writer ran on this host and its process is
 * gone, by its age otherwise.
 */
final class RunClaims {

  /** Claims of older steps kept: a writer that read step N may still be about to claim N + 1. */
  private static final int KEEP = 2;

  private final NameClaims claims;

  RunClaims(Sql sql, Identifier database) {
    this.claims = new NameClaims(sql, database);
  }

  /**
   * The state a claim moved to, as its note says, and who made it ({@code host} empty and {@code pid} 0
   * in a note written before claims named their writer, {@code user} empty before they named its user).
   */
  record Note(RunState to, Instant at, String host, long pid, String user) {
    String text() {
      return to.name() + " " + at.toEpochMilli() + " " + pid + " " + host + " " + user;
    }

    static Optional<Note> parse(String text) {
      String[] parts = text.split(" ", 5);
      try {
        return Optional.of(new Note(RunState.valueOf(parts[0]), Instant.ofEpochMilli(Long.parseLong(parts[1])),
            parts.length > 3 ? parts[3] : "", parts.length > 2 ? Long.parseLong(parts[2]) : 0,
            parts.length > 4 ? parts[4] : ""));
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }

    /** The process that made the claim. */
    dev.cutover.engine.api.Repair.Actor writer() {
      return new dev.cutover.engine.api.Repair.Actor(user, host, pid);
    }

    /**
     * Whether the writer never wrote its step and never will: the claim is older than {@code after}, or
     * its writer ran on this host and its process is gone ({@link Operator#gone}).
     */
    boolean abandoned(Duration after, Instant now) {
      return at.plus(after).isBefore(now)
          || pid > 0 && Operator.gone(new dev.cutover.engine.api.Repair.Actor("", host, pid), at, after, now);
    }
  }

  /** Claims step {@code step} of the run for a move to {@code to}; false when another writer has it. */
  boolean claim(String runId, long step, RunState to) {
    return claims.claim("move run " + runId + " to " + to.name().toLowerCase(Locale.ROOT), name(runId, step),
        new Note(to, Instant.now(), Operator.host(), ProcessHandle.current().pid(), Operator.user()).text());
  }

  /** What the claim of that step says, when it exists and can be read. */
  Optional<Note> note(String runId, long step) {
    return claims.find("read the claim on run " + runId, name(runId, step)).flatMap(c -> Note.parse(c.note()));
  }

  /**
   * Withdraws a claim whose writer never wrote its step (the caller saw the run's record still at the
   * step before): its writer's process on this host is gone, or the claim is older than {@code after}.
   * The writer failed between its two statements (its process was killed, or the server went away),
   * and without this the run could never move again; a resume right after a kill would be told that
   * another writer had moved the run.
   */
  boolean withdrawAbandoned(String runId, long step, Duration after) {
    Optional<Note> note = note(runId, step);
    if (note.isPresent() && !note.get().abandoned(after, Instant.now())) {
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
