package dev.cutover.ui.cutover;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.ui.common.Formats;
import java.time.Instant;

/** What the cutover screen says of a gate, a swap and v1's retention, and in which tone. */
final class GateWords {

  private GateWords() {}

  /**
   * What is true of the consumers and the gate shown. After a cutover that is good news (consumers
   * read v2, and the way back is open until v1's retention horizon), never a closed cutover gate in red;
   * after a rollback it says that consumers read v1 again and since when, and what a new cutover needs.
   */
  static String headline(Gate g, Retention r, Repair repair, SwapResult lastSwap) {
    if (g == null) {
      return "Checking the gate…";
    }
    if (done(g)) {
      return "Cut over for good: v1 is dropped";
    }
    if (g.step().equals(Gate.ROLLBACK)) {
      String since = r == null ? "" : r.cutoverAt().map(t -> " since " + Formats.time(t)).orElse("");
      String until = r == null ? "" : r.keepUntil().map(t -> " until " + Formats.time(t)).orElse("");
      return "Consumers read v2" + since + "; " + (g.open() ? "rollback possible" + (until.isEmpty()
          ? " while v1 is kept" : until) : "rollback gate closed: " + g.unmet().size() + " condition(s) unmet");
    }
    if (rolledBack(g, repair)) {
      // The swap's own time when this console made it; else when the repair recorded the rollback.
      Instant since = lastSwap != null && lastSwap.action().equals(Gate.ROLLBACK) ? lastSwap.at() : repair.at();
      return "Consumers read v1 again since " + Formats.time(since) + " (rolled back). " + (g.open()
          ? "The cutover gate is open; cut over again only once what the rollback was for is understood"
          : "Cutting over again needs " + g.unmet().size() + " more condition(s)");
    }
    return g.open() ? "Cutover gate open: every condition is met" : "Cutover gate closed: " + unmetWords(g);
  }

  /** How many conditions are violated and how many not met yet: only the first is an alarm. */
  static String unmetWords(Gate g) {
    int violated = g.violated().size();
    int notYet = g.unmet().size() - violated;
    return violated == 0 ? notYet + " condition(s) not met yet"
        : violated + " condition(s) violated" + (notYet == 0 ? "" : ", " + notYet + " not met yet");
  }

  /** Which hours the gate checked and when it was judged: a gate is a judgement of the data at one moment. */
  static String judged(Gate g, Instant at) {
    if (g == null || at == null) {
      return "";
    }
    return g.judged().map(w -> "The gate checked the data of " + Formats.hours(w.hours()) + ", " + w + ", at "
        + Formats.clock(at) + ".").orElse("The gate was judged at " + Formats.clock(at) + ".");
  }

  /** Whether consumers read v1 because a rollback put them back, rather than never having switched. */
  static boolean rolledBack(Gate g, Repair repair) {
    return repair != null && repair.phase() == RepairPhase.ROLLED_BACK && g.current() == Gate.Version.V1;
  }

  static boolean opens(Gate g, String step) {
    return g != null && g.step().equals(step) && g.open();
  }

  /**
   * Green when the step shown may be taken or all is done; amber, not red, when a successful swap left a gate
   * closed; amber, never green, after a rollback: a fix was taken back, and cutting over again is a decision.
   */
  static String tone(Gate g, Repair repair) {
    if (rolledBack(g, repair)) {
      return "warn";
    }
    if (done(g) || g.open()) {
      return "good";
    }
    if (g.step().equals(Gate.ROLLBACK)) {
      return "warn";
    }
    // A gate closed only by conditions the procedure has not reached yet is the normal way there, not an alarm.
    return g.violated().isEmpty() ? "neutral" : "bad";
  }


  /** Whether the procedure is over: v1 was dropped after the cutover. */
  static boolean done(Gate g) {
    return g.v1Dropped() && g.current() == Gate.Version.V2;
  }

  static String retention(Retention r) {
    String basis = "v1 is kept for " + r.total().toHours() + " h after the cutover: the longest consumer cache ("
        + r.longestCacheConsumer() + ", " + r.longestCache().toHours() + " h) plus the reconciliation window ("
        + r.reconciliationWindow().toHours() + " h) plus a margin (" + r.margin().toHours() + " h).";
    if (r.droppedAt().isPresent()) {
      return "v1 was dropped at " + Formats.time(r.droppedAt().get()) + "; there is no rollback any more.";
    }
    return basis + " " + r.keepUntil().map(t -> "Consumers switched at " + Formats.time(r.cutoverAt().orElse(null))
        + "; v1 and the rollback stay until " + Formats.time(t) + ".").orElse("The horizon starts at the cutover.");
  }
}
