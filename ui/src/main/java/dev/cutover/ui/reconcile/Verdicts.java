package dev.cutover.ui.reconcile;

import dev.cutover.engine.ReconcileSteps;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.ui.common.Formats;
import java.util.Locale;
import java.util.stream.Collectors;

/** The words of a reconciliation: its verdict, what it found, and one hour's story. */
final class Verdicts {

  private Verdicts() {}

  static String headline(Reconciliation r) {
    return switch (r.verdict()) {
      case GREEN -> "GREEN: every difference is explained, coverage is complete";
      case ACKNOWLEDGED -> "ACKNOWLEDGED: green with " + r.held().size() + " accepted difference(s)";
      case RED -> "RED: " + problems(r) + lapsed(r);
    };
  }

  /** Why a red verdict has acknowledged hours among its problems: the acknowledgements that lapsed. */
  private static String lapsed(Reconciliation r) {
    if (r.lapsed().isEmpty()) {
      return "";
    }
    var first = r.lapsed().getFirst();
    return "; " + r.lapsed().size() + " acknowledgement(s) no longer hold (" + first.subject() + ": "
        + first.lapsed().orElse("it accepts nothing") + ")";
  }

  private static String problems(Reconciliation r) {
    return problems(r.unexpectedKeys(), r.coverage().size());
  }

  private static String problems(long unexpected, long coverage) {
    String keys = unexpected + " unexpected key difference(s)";
    return coverage == 0 ? keys : keys + " and " + coverage + " coverage problem(s)";
  }

  /** The headline of a stored reconciliation, in the words of one made here. */
  static String headline(ReportSummary s) {
    return switch (s.verdict()) {
      case GREEN -> "GREEN: every difference is explained, coverage is complete";
      case ACKNOWLEDGED -> "ACKNOWLEDGED: green with " + s.acknowledged() + " accepted difference(s)";
      case RED -> "RED: " + problems(s.unexpectedKeys(), s.coverageIssues());
    };
  }

  static String scope(ReportSummary s) {
    return scope(s.scope());
  }

  /** What a stored reconciliation found, and that reconciling here shows its hours and keys. */
  static String stored(ReportSummary s) {
    return "The latest stored reconciliation, " + named(s.id()) + " of " + Formats.time(s.created()) + " ("
        + repairs(s.repairId()) + "), over " + s.window() + ", boundary " + s.boundary() + ": " + Formats.hours(s.window().hours())
        + ", " + Formats.count(s.differingHours()) + " differ; " + Formats.count(s.expectedKeys()) + " keys differ as "
        + "expected, " + Formats.count(s.unexpectedKeys()) + " unexpectedly, " + Formats.count(s.acknowledged())
        + " acknowledged; " + (s.coverageIssues() == 0 ? "every hour of v2 present once." : Formats.count(
            s.coverageIssues()) + " coverage problem(s).") + " Reconcile now to see its hours and "
        + "keys, judged on the data as it is now.";
  }

  /** That the report shown is the stored one, of when, and that it judged the data as it was then. */
  static String storedShown(ReportSummary s) {
    return "Shown: the latest stored reconciliation, " + named(s.id()) + " of " + Formats.time(s.created()) + " ("
        + repairs(s.repairId()) + "), as it judged the data then. Reconcile now to judge the data as it is now.";
  }

  /** Which hours the reconciliation covers, and whether it is the kind that can open the gate. */
  static String scope(Reconciliation r) {
    return scope(r.scope());
  }

  /** Which hours a verdict covers, and whether it is the kind that can open the cutover gate. */
  static String scope(Reconciliation.Scope scope) {
    return "Scope: " + scope.words() + ". Only a reconciliation of the whole repair opens the cutover gate: "
        + (scope.decides() ? "this one can." : "this one is for looking.");
  }

  static String detail(Reconciliation r) {
    long differing = r.hours().stream().filter(h -> !h.identical()).count();
    long expected = r.expectedKeys();
    return "Reconciliation " + named(r.id()) + " of " + Formats.time(r.created()) + " over " + r.window() + ", boundary "
        + r.boundary() + ". " + Formats.hours(r.window().hours()) + ", " + Formats.count(differing) + " differ; "
        + Formats.count(expected + r.unexpectedKeys()) + " keys differ: " + Formats.count(expected) + " expected, "
        + Formats.count(r.unexpectedKeys()) + " unexpected" + (r.keysTruncated() ? " (the first listed)" : "") + ", "
        + Formats.count(r.held().size()) + " acknowledged. " + (r.coverage().isEmpty()
            ? "Every hour of v2 is present once, owned by one writer." : Formats.count(r.coverage().size())
            + " coverage problem(s).");
  }

  /**
   * A reconciliation's id in words: over a sharded table the one shown is every shard's, and says so ({@code over 3
   * shards (a, b, c)}).
   */
  static String named(String id) {
    String[] each = id.split(java.util.regex.Pattern.quote(ReconcileSteps.ID_SEPARATOR));
    return each.length == 1 ? id : "over " + each.length + " shards (" + String.join(", ", each) + ")";
  }

  /** {@code repair R}, or over a sharded table {@code repairs R1, R2, R3}: one per shard. */
  static String repairs(String repairId) {
    String[] each = repairId.split(java.util.regex.Pattern.quote(ReconcileSteps.ID_SEPARATOR));
    return each.length == 1 ? "repair " + repairId : "repairs " + String.join(", ", each);
  }

  static String hour(Reconciliation r, HourPartition h) {
    if (r == null || h == null) {
      return "Click an hour in the charts (or focus one and use the arrow keys) to see its keys.";
    }
    var cls = r.classes().stream().filter(c -> c.hour().equals(h)).findFirst();
    var diff = r.hours().stream().filter(d -> d.hour().equals(h)).findFirst();
    String totals = diff.map(d -> "rows v1 " + d.rowsV1() + ", v2 " + d.rowsV2() + "; " + d.totals().stream()
        .map(t -> t.measure() + " " + Formats.number(t.v1()) + " → " + Formats.number(t.v2()))
        .collect(Collectors.joining(", "))).orElse("no rows in either version");
    String coverage = r.coverage().stream().filter(c -> c.hour().equals(h)).map(c -> c.kind() + ": " + c.detail())
        .collect(Collectors.joining("; "));
    String acks = r.acknowledged().stream().filter(a -> a.hour().equals(h)).map(a -> "acknowledged"
        + (a.key().isEmpty() ? "" : " key " + String.join(" / ", a.key())) + " by " + a.by() + " ("
        + a.seen().map(Reconciliation.Fingerprint::describe).orElse("what, not recorded") + ")"
        + (a.holds() ? "" : ", no longer holds: " + a.lapsed().orElse("it accepts nothing")))
        .collect(Collectors.joining("; "));
    coverage = acks.isEmpty() ? coverage : coverage.isEmpty() ? acks : coverage + "; " + acks;
    return h + " UTC · " + cls.map(c -> c.status().name().toLowerCase(Locale.ROOT) + ", written by the "
        + (c.owner() == Reconciliation.Owner.CARRIED ? "backfill, carried from v1 (proven by checksum)"
            : c.owner().words())).orElse("outside the window")
        + " · " + totals + (coverage.isEmpty() ? "" : " · " + coverage);
  }
}
