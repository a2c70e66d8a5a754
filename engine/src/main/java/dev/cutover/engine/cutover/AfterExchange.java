package dev.cutover.engine.cutover;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.SwapResult.Check;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cutover.SwapVerification.Verification;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What consumers read when the server went away around an exchange: its answer to the statement was
 * lost, or it stopped answering while the swap was checked. The consumer view's definition says which
 * version consumers read; it is read again while the server comes back, for a bounded time, and
 * otherwise said to be unknown for now, with where to find out. Nothing here retries the exchange:
 * consumers were switched, or were not, by the one statement that ran.
 */
final class AfterExchange {

  /** How long the server may take to answer again: a restart under {@code cutover server} takes a few seconds. */
  static final Duration PATIENCE = Duration.ofSeconds(12);

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private final SwapVerification verification;
  private final ConsumerView view;
  private final TableSpec spec;
  private final BooleanSupplier answering;
  private final Duration patience;

  /**
   * @param answering whether the server answers now, asked before each read so that a read does not wait on a
   *     server that is gone
   */
  AfterExchange(Sql sql, TableSpec spec, BooleanSupplier answering, Duration patience) {
    this.verification = new SwapVerification(sql, spec);
    this.view = new ConsumerView(sql, spec);
    this.spec = spec;
    this.answering = answering;
    this.patience = patience;
  }

  /** What the consumer view's definition showed and when, after how many tries; empty when it did not answer. */
  record Reading(Optional<Version> reads, Instant at, int tries) {}

  /** Reads which version the consumer view reads, as soon as the server answers, within the patience. */
  Reading readAgain() {
    Instant deadline = Instant.now().plus(patience);
    int tries = 0;
    for (long wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
      tries++;
      if (answering.getAsBoolean()) {
        try {
          return new Reading(Optional.of(view.reads()), Instant.now(), tries);
        } catch (CutoverException notYet) {
          // the server answers a ping before it serves queries again
        }
      }
      if (Instant.now().plusMillis(wait).isAfter(deadline)) {
        return new Reading(Optional.empty(), Instant.now(), tries);
      }
      Swap.pause(wait);
    }
  }

  /**
   * The check of a swap whose exchange ran ({@code how} says how that is known): the view compared with
   * {@code expected}; when the comparison fails, what the view's definition shows once the server answers,
   * compared again then, and otherwise a sentence that says consumers were switched and what is unknown.
   */
  Verification check(HourRange window, Identifier expected, Version after, String action, String how) {
    CutoverException first;
    try {
      return verification.verify(window, expected);
    } catch (CutoverException e) {
      first = e;
    }
    String failure = Sql.situation(first.getMessage());
    Reading again = readAgain();
    if (again.reads().isEmpty()) {
      return new Verification(Check.INCOMPLETE, "NOT verified: " + how + ", so consumers of " + spec.consumerView()
          + " were switched to " + expected + "; then the server stopped answering (" + failure + ") and has not "
          + "answered for " + patience.toSeconds() + " s (" + again.tries() + " tries), so neither the rows of "
          + spec.consumerView() + " nor its definition could be read again: which version consumers read now is "
          + "unknown until it answers. Read the repair's status then: it says which version they read");
    }
    Version reads = again.reads().get();
    String seen = spec.consumerView() + "'s definition, read again at " + CLOCK.format(again.at()) + ", reads "
        + table(reads);
    if (reads != after) {
      return new Verification(Check.DIFFERS, "NOT verified: " + how + ", but " + seen + ", not " + expected
          + ": something switched it since. Investigate before anything else (the check first failed: " + failure
          + ")");
    }
    if (first.retryable()) {
      try {
        Verification compared = verification.verify(window, expected);
        return new Verification(compared.check(), compared.sentence() + "; compared again once the server answered "
            + "at " + CLOCK.format(again.at()) + ", after the first comparison failed (" + failure + ")");
      } catch (CutoverException again2) {
        failure = failure + "; again: " + Sql.situation(again2.getMessage());
      }
    }
    return new Verification(Check.INCOMPLETE, "NOT verified: " + how + ", and consumers of " + spec.consumerView()
        + " read " + expected + " now: " + seen + "; but its rows could not be compared with " + expected + "'s ("
        + failure + "). The " + action + " stands; only this check of it is missing");
  }

  /**
   * The refusal for an exchange whose answer the server did not give, when its definition, read again, shows
   * that it did not run ({@code reading} names the version before) or cannot be read.
   */
  QueryFailedException notSwitched(String action, String statement, QueryFailedException cause, Reading reading) {
    String lost = "the server stopped answering while it ran " + statement + " (" + Sql.situation(cause.getMessage())
        + ")";
    String sentence = reading.reads().map(v -> "The " + action + " did not switch consumers: " + lost + ", and "
        + spec.consumerView() + "'s definition, read again at " + CLOCK.format(reading.at()) + ", still reads "
        + table(v) + ". Nothing was switched; run the " + action + " again.")
        .orElse("Whether the " + action + " switched consumers is unknown: " + lost + ", and it has not answered for "
            + patience.toSeconds() + " s (" + reading.tries() + " tries). The exchange is one statement, so consumers "
            + "of " + spec.consumerView() + " read one version whole, " + spec.consumerLive() + " or "
            + spec.consumerTarget() + ". Read the repair's status once the server answers: it says which, and "
            + "records the " + action + " if it ran.");
    return new QueryFailedException(sentence, cause.errorCode(), cause.queryId().orElse(null), true, true, cause);
  }

  /** How an exchange whose answer was lost is known to have run. */
  String ranAnyway(QueryFailedException cause, Reading reading) {
    return "the exchange ran (its answer was lost: " + Sql.situation(cause.getMessage()) + "; "
        + spec.consumerView() + "'s definition, read again at " + CLOCK.format(reading.at()) + ", shows it)";
  }

  private String table(Version v) {
    return switch (v) {
      case V1 -> spec.consumerLive().toString();
      case V2 -> spec.consumerTarget().toString();
      case UNKNOWN -> "neither version";
    };
  }
}
