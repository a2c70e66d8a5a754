package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOptions;
import dev.cutover.app.output.ProgressOutput;
import dev.cutover.app.output.Text;
import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code cutover --arm} and {@code --disarm}: arms the cutover behind the typed confirmation, then takes its turns
 * (the gate judged every {@code --every}) until consumers switch, the window ends or another process disarms it,
 * saying on stderr each time why it still waits; Ctrl-C disarms it, so that no arm is left without a process to
 * take its turns, once a turn under way has ended: a turn that is switching consumers is not cut off between its
 * statements. Exit 0 once switched (or disarmed with {@code --disarm}), 6 when it ends without switching.
 */
final class ArmedCutover {

  private static final Pattern DURATION = Pattern.compile("(\\d+)([smhd])");

  private final CutoverSteps steps;
  private final TableSpec spec;
  private final PrintWriter err;
  /** Held while a turn runs: Ctrl-C waits for it, and no turn starts once Ctrl-C came. */
  private final java.util.concurrent.locks.ReentrantLock turning = new java.util.concurrent.locks.ReentrantLock();
  private volatile boolean stopping;
  /** How long Ctrl-C waits for a turn under way (a switch, then its verification) before it disarms regardless. */
  private static final Duration TURN_GRACE = Duration.ofSeconds(60);

  ArmedCutover(CutoverSteps steps, TableSpec spec, PrintWriter err) {
    this.steps = steps;
    this.spec = spec;
    this.err = err;
  }

  /** {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}; anything else is refused naming {@code option}. */
  static Duration duration(String option, String text) {
    Matcher m = DURATION.matcher(text == null ? "" : text.strip());
    if (!m.matches()) {
      throw new InvalidInputException(option, option + " '" + text + "' is not a duration; give one such as 90s, "
          + "30m, 2h or 1d.");
    }
    try {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofSeconds(n);
      };
    } catch (ArithmeticException | NumberFormatException e) {
      throw new InvalidInputException(option, option + " '" + text + "' is too long; give one such as 90s, 30m, 2h "
          + "or 1d.");
    }
  }

  /** Until the next turn: {@code every}, but never past the window's end, which the next turn then sees. */
  private static long pause(Duration every, Armed armed) {
    long left = Duration.between(java.time.Instant.now(), armed.until()).toMillis();
    return Math.max(100, Math.min(every.toMillis(), left + 100));
  }

  /**
   * Ctrl-C: waits for a turn under way to end (a switch of consumers runs to its end and is verified), then
   * disarms. A turn that switched left nothing armed, and the disarm then finds nothing.
   */
  private void disarmOnStop() {
    stopping = true;
    boolean waited = false;
    try {
      if (turning.isLocked()) {
        err.println("Stopping: the turn under way ends first (a switch of consumers is not cut off halfway).");
        err.flush();
      }
      waited = turning.tryLock(TURN_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      steps.disarm("the command that armed it was stopped (Ctrl-C)");
    } finally {
      if (waited) {
        turning.unlock();
      }
    }
  }

  int disarm(BiConsumer<Object, List<String>> print) {
    // The audit trail's line names who disarmed it, and where.
    Optional<Armed> gone = steps.disarm("disarmed with cutover --disarm");
    String sentence = gone.map(a -> "The armed cutover (" + a.describe() + ") is disarmed; nothing was switched.")
        .orElse("Nothing is armed for " + spec.database() + "." + spec.targetTable() + "; nothing was changed.");
    print.accept(new SwapDocuments.ArmDocument("cutover", gone.isPresent() ? "disarmed" : "not_armed",
        gone.map(SwapDocuments.Arm::of).orElse(null), sentence), List.of(sentence));
    return ExitCodes.OK;
  }

  int arm(String confirmation, Duration window, Duration every, ProgressOptions options,
      BiConsumer<Object, List<String>> print) throws InterruptedException {
    Armed armed = steps.arm(confirmation, window);
    err.println("The cutover is " + armed.describe() + ": consumers of " + spec.consumerView() + " switch to v2 the "
        + "first time the gate opens before then. The gate is judged every " + Text.duration(every) + "; Ctrl-C "
        + "disarms it.");
    err.flush();
    Thread disarmOnInterrupt = new Thread(this::disarmOnStop);
    Runtime.getRuntime().addShutdownHook(disarmOnInterrupt);
    try {
      String said = "";
      while (true) {
        Armed.Turn turn = null;
        turning.lock();
        try (ProgressOutput progress = options.open("cutover", err)) {
          if (stopping) {
            return ExitCodes.INTERRUPTED; // Ctrl-C came between turns: it disarms, and no turn starts
          }
          turn = steps.armedTurn(new StepProgress(progress, "Cutover"));
        } catch (dev.cutover.engine.api.InvalidInputException | dev.cutover.engine.api.StepRefusedException e) {
          throw e;
        } catch (RuntimeException e) {
          // A server that does not answer for a moment: the arm stays, and this command keeps taking its turns.
          String sentence = "This turn could not judge the gate (" + e.getMessage() + "); the arm stays, and the next "
              + "turn tries again.";
          if (!sentence.equals(said)) {
            err.println(Text.time(java.time.Instant.now()) + ": " + sentence);
            err.flush();
            said = sentence;
          }
        } finally {
          turning.unlock();
        }
        if (turn == null) {
          Thread.sleep(pause(every, armed));
          continue;
        }
        switch (turn.outcome()) {
          case SWITCHED -> {
            SwapResult r = turn.switched().orElseThrow();
            print.accept(SwapDocuments.SwapDocument.of("cutover", r), List.of(r.action() + ": " + r.before() + " -> "
                + r.after() + " in " + Text.duration(r.took()) + " at " + Text.time(r.at()) + ", the first time the "
                + "gate opened; " + r.verification()));
            return r.verified() ? ExitCodes.OK : ExitCodes.QUERY;
          }
          case EXPIRED, NOT_ARMED -> {
            String sentence = turn.outcome() == Armed.Outcome.EXPIRED ? turn.sentence() : "The armed cutover was "
                + "disarmed by another process (or it switched consumers there); this command switched nothing.";
            print.accept(new SwapDocuments.ArmDocument("cutover", turn.outcome() == Armed.Outcome.EXPIRED ? "expired"
                : "not_armed", SwapDocuments.Arm.of(armed), sentence), List.of(sentence));
            return ExitCodes.BLOCKED;
          }
          case WAITING -> {
            if (!turn.sentence().equals(said)) {
              err.println(Text.time(java.time.Instant.now()) + ": " + turn.sentence());
              err.flush();
              said = turn.sentence();
            }
            Thread.sleep(pause(every, armed));
          }
        }
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(disarmOnInterrupt);
      } catch (IllegalStateException e) {
        // shutting down: the hook disarms
      }
    }
  }
}
