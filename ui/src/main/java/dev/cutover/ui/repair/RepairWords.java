package dev.cutover.ui.repair;

import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.ui.common.Formats;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The words of the repair banner: where the repair stands, read from one {@link RepairStatus}. */
final class RepairWords {

  private RepairWords() {}

  /** The phase as the engine says it, or that no repair has started yet. */
  static String phase(Optional<Repair> repair) {
    return repair.map(r -> r.phase().words()).orElse("no repair yet");
  }

  /** The style of the phase's pill: none, working, good or ended. */
  static String tone(Optional<Repair> repair) {
    return repair.map(r -> switch (r.phase()) {
      case RECONCILED, CUT_OVER, V1_DROPPED -> "good";
      case ABANDONED -> "ended";
      default -> "working";
    }).orElse("none");
  }

  /** The repair's identity, its boundary and first hour, and the operation under way, if any. */
  static String repair(Optional<Repair> repair, String target, boolean byView) {
    if (repair.isEmpty()) {
      return "No repair of " + target + " yet: " + (byView ? "deploying its corrected view" : "its first backfill")
          + " pins the boundary B.";
    }
    Repair r = repair.get();
    List<String> parts = new ArrayList<>();
    parts.add("Repair " + r.id());
    r.boundary().ifPresent(b -> parts.add("B = " + b + " UTC" + (r.phase() == RepairPhase.ABANDONED
        ? " (no longer counts)" : "")));
    r.firstHour().ifPresent(f -> parts.add("history from " + f + " UTC"));
    r.correctedViews().ifPresent(v -> parts.add("corrected view " + v));
    r.operation().ifPresent(op -> parts.add(op.action() + (op.runId().isEmpty() ? "" : " " + op.runId()) + " by "
        + op.holder() + " since " + Formats.clock(op.since())));
    return String.join(" · ", parts);
  }

  /**
   * The repair in the compact banner's one line: its id, B and the operation in flight, without the holder and
   * times that the whole summary adds ("More" shows it), so that the line is read whole rather than cut.
   */
  static String repairShort(Optional<Repair> repair, String target, boolean byView) {
    if (repair.isEmpty()) {
      return "No repair of " + target + " yet";
    }
    Repair r = repair.get();
    List<String> parts = new ArrayList<>();
    parts.add("Repair " + r.id());
    r.boundary().ifPresent(b -> parts.add("B = " + b + " UTC" + (r.phase() == RepairPhase.ABANDONED
        ? " (no longer counts)" : "")));
    r.operation().ifPresent(op -> parts.add(op.action() + " under way"));
    return String.join(" · ", parts);
  }

  /** Where the corrected live writer was seen to start, or why it is not observed. */
  static String liveWriter(RepairStatus s) {
    if (s.liveWriter().isPresent()) {
      return s.liveWriter().get().describe();
    }
    if (s.repair().isEmpty() || s.repair().get().boundary().isEmpty()) {
      return s.next().kind() == RepairStatus.Kind.DEPLOY_VIEW ? "The corrected view, once deployed: it writes v2 "
          + "from the boundary B its deployment pins." : "Observed once the first backfill pins B.";
    }
    if (s.repair().get().phase().ended()) {
      return "Not observed: the repair is over.";
    }
    return "Not observed yet: no hour of the repair window is closed.";
  }

  /** The window the verdict over the whole repair covers, what it found, and whether it counts for the gate. */
  static String verdict(RepairStatus s) {
    if (s.verdict().isEmpty()) {
      return s.repair().filter(r -> !r.phase().ended()).isPresent()
          ? "None over the whole repair yet; only that verdict can open the gate."
          : "None: there is no repair under way.";
    }
    RepairStatus.Verdict v = s.verdict().get();
    String found = switch (v.verdict()) {
      case GREEN -> "Green";
      case ACKNOWLEDGED -> "Green with " + v.acknowledged() + " acknowledged";
      case RED -> "Red (" + v.unexpectedKeys() + " unexpected key(s), " + v.coverageIssues() + " coverage issue(s))";
    };
    List<String> why = new ArrayList<>();
    if (!v.underThisSpec()) {
      why.add("made under another version of the spec");
    }
    if (!v.coversRepair()) {
      why.add("not over the repair from its first hour with its boundary");
    }
    return found + " over " + v.window() + ", " + Formats.hours(v.window().hours()) + "; " + (v.counts()
        ? "the gate judges by it." : "it does not count: " + String.join(", ", why) + ".");
  }

  /** Which reconciliation made the verdict, and when. */
  static String verdictSource(RepairStatus s) {
    return s.verdict().map(v -> "Reconciliation " + v.id() + " of " + Formats.time(v.created()) + ", of repair "
        + s.repair().map(Repair::id).orElse("—") + " of " + s.target() + ".").orElse("");
  }

  /** The next step's screen and button, as the console names them; empty when nothing is left to do here. */
  static String nextButton(RepairStatus s) {
    return NextStepWords.button(s.next());
  }

  static String nextSentence(RepairStatus s) {
    return s.next().sentence();
  }

  /** The next step on the command line ({@code SPEC} stands for the spec file), or that it happens outside Cutover. */
  static String command(RepairStatus s, String consumerView) {
    String command = NextStepWords.command(s.next(), "SPEC", consumerView, s.target().substring(s.target().indexOf('.') + 1));
    return command.isEmpty() ? "This step happens outside Cutover." : "On the command line: " + command;
  }
}
