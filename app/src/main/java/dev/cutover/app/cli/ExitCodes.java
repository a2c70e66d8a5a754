package dev.cutover.app.cli;

import dev.cutover.engine.api.BoundaryPinnedException;
import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.StepRefusedException;

/**
 * The exit codes of every command, documented in the README.
 *
 * <ul>
 *   <li>0 success
 *   <li>1 an unexpected internal error (a bug: the message says where)
 *   <li>2 bad input: an option, a date, a name, a spec; also a boundary other than the one the repair
 *       pinned ({@link BoundaryPinnedException}), which the operator changes in the command
 *   <li>3 could not connect, or the server is unsuitable
 *   <li>4 the embedded engine could not be fetched or started
 *   <li>5 a statement failed on the server, or a swap's check found the view returning other rows (a swap
 *       whose check could not complete, the server gone after the exchange, exits 0 with a warning:
 *       consumers were switched)
 *   <li>6 a step was refused in the state it found, or a check found a blocking problem: a closed gate,
 *       a phase of the repair that does not allow the step, a failed preflight, a red reconciliation
 *   <li>7 the console cannot open its window: no desktop session (no display), or no GTK 3 to draw with; the
 *       command line still works
 *   <li>8 another process holds the repair or the target (a backfill run, a cutover, a rollback, a drop
 *       of v1), or won the race to change it at the same moment, whichever step lost: nothing was changed,
 *       and the same command can succeed once it ends, so a script may retry it later ({@link
 *       HeldByAnotherProcessException})
 *   <li>130 interrupted
 * </ul>
 */
public final class ExitCodes {

  public static final int OK = 0;
  public static final int INTERNAL = 1;
  public static final int INPUT = 2;
  public static final int CONNECTION = 3;
  public static final int EMBEDDED = 4;
  public static final int QUERY = 5;
  public static final int BLOCKED = 6;
  public static final int NO_DESKTOP = 7;
  public static final int HELD = 8;
  public static final int INTERRUPTED = 130;

  private ExitCodes() {}

  public static int of(CutoverException e) {
    return switch (e) {
      case InvalidInputException i -> INPUT;
      case ConnectionFailedException c -> CONNECTION;
      case EmbeddedEngineException s -> EMBEDDED;
      case QueryFailedException q -> QUERY;
      case HeldByAnotherProcessException h -> HELD;
      case BoundaryPinnedException p -> INPUT;
      case StepRefusedException r -> BLOCKED;
    };
  }
}
