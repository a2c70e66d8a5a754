package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.app.output.TextTable;
import dev.cutover.app.output.TextTable.Align;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Reconciliation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A reconciliation for people: the verdict, counts, the unexpected differences grouped by hour and
 * class ("900 keys in 1 hour, 2026-07-01 17:00 UTC, all duplicate_in_v1"), then the first keys.
 */
final class ReconcileText {

  /** Rows of the hour-by-class table, and keys listed, before "… more". */
  static final int GROUPS_SHOWN = 20;
  static final int KEYS_SHOWN = 10;

  private ReconcileText() {}

  static List<String> lines(Reconciliation r, List<Diff.KeyDiff> open) {
    List<String> out = new ArrayList<>();
    long differing = r.hours().stream().filter(h -> !h.identical()).count();
    out.add("Reconciliation " + r.id() + " of " + r.target() + " over " + r.scope().words() + ", "
        + Text.window(r.window()) + ": " + r.verdict().name().toLowerCase(Locale.ROOT) + (r.scope().decides() ? ""
            : " (a narrower window: it is stored and shown, but only the whole repair can open the gate)"));
    out.add("  " + Text.hours(r.hours().size()) + ", " + Text.count(differing) + " differ; "
        + Text.count(r.expectedKeys()) + " keys differ as the rules expect, " + Text.count(r.unexpectedKeys())
        + " unexpectedly, " + Text.count(r.held().size()) + " acknowledged; " + Text.count(r.coverage().size())
        + " coverage issue(s)");
    var expected = Differences.expected(r);
    if (!expected.isEmpty()) {
      out.add("Expected by the spec's rules:");
      TextTable t = new TextTable("  ", Align.LEFT, Align.RIGHT, Align.LEFT);
      expected.forEach(e -> t.row(e.rule(), Text.count(e.keys()), "keys in " + Text.hours(e.hours())));
      out.addAll(t.lines());
    }
    var unexpected = Differences.unexpected(r);
    if (!unexpected.isEmpty()) {
      out.add("Unexpected: " + summary(unexpected));
      TextTable t = new TextTable("  ", Align.LEFT, Align.LEFT, Align.RIGHT);
      t.row("hour", "class", "keys");
      unexpected.stream().limit(GROUPS_SHOWN).forEach(u -> t.row(Text.hour(u.hour()),
          u.kind().name().toLowerCase(Locale.ROOT), Text.count(u.keys())));
      out.addAll(t.lines());
      if (unexpected.size() > GROUPS_SHOWN) {
        out.add("  … and " + Text.count(unexpected.size() - GROUPS_SHOWN) + " more rows (--json or --export lists "
            + "them all)");
      }
      if (!open.isEmpty()) {
        out.add("First keys:");
        TextTable keys = new TextTable("  ", Align.LEFT, Align.LEFT, Align.LEFT);
        open.stream().limit(KEYS_SHOWN).forEach(k -> keys.row(Text.hour(k.hour()),
            k.kind().name().toLowerCase(Locale.ROOT), String.join(", ", k.key())));
        out.addAll(keys.lines());
      }
    }
    // An acknowledgement that no longer holds is why the verdict is red even though somebody accepted the hour.
    r.lapsed().forEach(a -> out.add("  acknowledgement of " + (a.key().isEmpty() ? Text.hour(a.hour()) + " (whole hour)"
        : Text.hour(a.hour()) + " key " + a.key()) + " by " + a.by() + " no longer holds: " + a.lapsed().orElse("")
        + "."));
    r.coverage().stream().limit(GROUPS_SHOWN).forEach(c -> out.add("  coverage " + Text.hour(c.hour()) + " "
        + c.kind() + ": " + c.detail()));
    return out;
  }

  /** {@code 900 keys in 1 hour, 2026-07-01 17:00 UTC, all duplicate_in_v1}. */
  static String summary(List<Differences.Unexpected> groups) {
    long keys = groups.stream().mapToLong(Differences.Unexpected::keys).sum();
    var hours = groups.stream().map(Differences.Unexpected::hour).distinct().sorted().toList();
    Map<Diff.Kind, Long> byKind = new LinkedHashMap<>();
    groups.forEach(g -> byKind.merge(g.kind(), g.keys(), Long::sum));
    String where = hours.size() == 1 ? Text.hour(hours.getFirst())
        : "from " + Text.hour(hours.getFirst()) + " to " + Text.hour(hours.getLast());
    String kinds = byKind.size() == 1 ? "all " + byKind.keySet().iterator().next().name().toLowerCase(Locale.ROOT)
        : String.join(", ", byKind.entrySet().stream().map(e -> Text.count(e.getValue()) + " "
            + e.getKey().name().toLowerCase(Locale.ROOT)).toList());
    return Text.count(keys) + (keys == 1 ? " key in " : " keys in ") + Text.hours(hours.size()) + ", " + where + ", "
        + kinds;
  }
}
