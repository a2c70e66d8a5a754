package dev.cutover.app.cli;

import static dev.cutover.app.output.Shapes.hour;
import static dev.cutover.app.output.Shapes.name;

import dev.cutover.app.output.Shapes.Window;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The JSON documents of reconcile and sample (docs/JSON.md). */
final class ReconcileDocuments {

  private ReconcileDocuments() {}

  record ReconcileDocument(String command, String id, String verdict, String scope, boolean decides, String repair,
      String target, Window window, Instant boundary, Instant created, long hours, long differingHours,
      long expectedKeys, long unexpectedKeys, List<ExpectedCount> expected, List<UnexpectedCount> unexpected,
      List<Key> keys, boolean keysTruncated, List<Acknowledgement> acknowledged, List<Coverage> coverage,
      Export export, BlockBoundMeasures blockBound) {

    static ReconcileDocument of(Reconciliation r, List<Diff.KeyDiff> keys, Export export,
        java.util.Optional<dev.cutover.engine.api.BlockBound> blockBound) {
      return new ReconcileDocument("reconcile", r.id(), name(r.verdict()), name(r.scope()), r.scope().decides(),
          r.repairId(), r.target(), Window.of(r.window()), hour(r.boundary()), r.created(), r.hours().size(),
          r.hours().stream().filter(h -> !h.identical()).count(), r.expectedKeys(), r.unexpectedKeys(),
          Differences.expected(r).stream().map(e -> new ExpectedCount(e.rule(), e.hours(), e.keys())).toList(),
          Differences.unexpected(r).stream().map(u -> new UnexpectedCount(hour(u.hour()), name(u.kind()), u.keys()))
              .toList(),
          keys.stream().map(Key::of).toList(), r.keysTruncated(),
          r.acknowledged().stream().map(a -> new Acknowledgement(hour(a.hour()), a.key(), a.reason(), a.by(), a.at(),
              a.seen().map(Reconciliation.Fingerprint::describe).orElse(null), a.holds(), a.lapsed().orElse(null)))
              .toList(),
          r.coverage().stream().map(c -> new Coverage(hour(c.hour()), c.kind(), c.detail())).toList(), export,
          blockBound.map(b -> new BlockBoundMeasures(b.measures(), b.by(), b.sentence())).orElse(null));
    }
  }

  /**
   * The measures the corrected views deduplicate within one insert block only ({@code BlockBound}): from B a
   * difference in them may be a retried insert rather than the fix.
   */
  record BlockBoundMeasures(List<String> measures, List<String> by, String sentence) {}

  record ExpectedCount(String rule, long hours, long keys) {}

  record UnexpectedCount(Instant hour, String kind, long keys) {}

  /**
   * An acknowledgement the verdict judged: {@code accepted} what it was made for, {@code holds} whether the
   * differences are still those, {@code lapsed} how they changed when they are not.
   */
  record Acknowledgement(Instant hour, List<String> key, String reason, String by, Instant at, String accepted,
      boolean holds, String lapsed) {}

  record Coverage(Instant hour, String kind, String detail) {}

  /** The files an export wrote: the report, and for an HTML report the CSV of its keys (else null). */
  record Export(String format, String report, String keys) {}

  /** One differing key, with each measure in both versions. */
  record Key(Instant hour, List<String> key, String kind, boolean expected, String rule, long rowsV1, long rowsV2,
      List<Measure> measures) {

    static Key of(Diff.KeyDiff k) {
      Set<Identifier> names = new LinkedHashSet<>(k.v1().keySet());
      names.addAll(k.v2().keySet());
      List<Measure> measures = new ArrayList<>();
      for (Identifier m : names.stream().sorted(java.util.Comparator.comparing(Identifier::name)).toList()) {
        measures.add(new Measure(m.name(), k.v1().getOrDefault(m, 0.0), k.v2().getOrDefault(m, 0.0), k.delta(m)));
      }
      return new Key(k.hour().start(), k.key(), name(k.kind()), k.expected(), k.rule().orElse(null), k.rowsV1(),
          k.rowsV2(), measures);
    }
  }

  /** A measure in v1 and v2 (or the sample), and v2 − v1 taken on the decimals that print them. */
  record Measure(String measure, double v1, double v2, double delta) {}

  record SampleDocument(String command, List<SampleHour> hours, long expectedKeys, long unexpectedKeys,
      boolean keysTruncated, List<Key> keys) {

    static SampleDocument of(Diff d) {
      return new SampleDocument("sample", d.hours().stream().map(h -> new SampleHour(hour(h.hour()), h.rowsV1(),
          h.rowsV2(), h.identical(), h.totals().stream().map(t -> new Measure(t.measure().name(), t.v1(), t.v2(),
              t.delta())).toList())).toList(), d.expectedKeys(), d.unexpectedKeys(), d.keysTruncated(),
          d.keys().stream().map(Key::of).toList());
    }
  }

  /** An hour of the sample: its rows in v1 and in the sample, and each measure's total in both. */
  record SampleHour(Instant hour, long rowsV1, long rowsV2, boolean identical, List<Measure> totals) {}
}
