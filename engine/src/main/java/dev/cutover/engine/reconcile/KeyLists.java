package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The report's lists of differing keys (unexpected, acknowledged, and examples of expected ones),
 * grouped by hour. Each hour is headed by its real counts by kind, which ClickHouse counted for every
 * key, so a heading is true even where the list below it is cut. Each key is a row with one cell per
 * key column and v1, v2 and v2 − v1 for each measure that differs anywhere.
 *
 * <p>A list is cut at {@link #SHOWN} keys (a page of thousands of rows helps nobody), and the
 * reconciliation itself keeps at most its key limit. Every cut is said in a sentence with where the
 * whole list is: the CSV written beside the HTML, or the command that writes it.
 */
final class KeyLists {

  /** The most unexpected or acknowledged keys a page shows. */
  static final int SHOWN = 300;
  /** The most examples of expected differences a page shows. */
  static final int EXAMPLES = 30;

  private static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
      .withZone(ZoneOffset.UTC);

  /** One list: its title, its real total, the sentence that says what is shown, and its hours. */
  record KeyList(String id, String title, String kindHeader, long total, int shown, Sentence sentence,
      List<HourGroup> hours) {
    boolean hasRows() {
      return !hours.isEmpty();
    }
  }

  /** A sentence, with the companion CSV's name as a link in it when there is one. */
  record Sentence(String before, String link, String after) {}

  /** One hour of a list: its heading, its counts, notes such as acknowledgements, and its keys. */
  record HourGroup(String hour, String counts, List<String> notes, List<Row> rows) {}

  /** One key: its columns as separate cells, how it differs, and each differing measure. */
  record Row(List<String> key, String kind, List<Cells> measures) {}

  /** One measure of one key: v1, v2 and v2 − v1, each as ClickHouse prints it. */
  record Cells(String v1, String v2, String delta, boolean changed) {}

  /** How many keys of a list an hour holds in all, and its heading's words for them by kind. */
  private record HourCount(long keys, String text) {}

  private final Reconciliation r;
  private final ReportColumns columns;
  private final List<Identifier> measures;
  private final Optional<String> csv;

  /**
   * @param csv the file name of the CSV written beside the page, or empty when the page is written alone
   */
  KeyLists(Reconciliation r, ReportColumns columns, ReportMeasures measures, Optional<String> csv) {
    this.r = r;
    this.columns = columns;
    this.measures = measures.differing();
    this.csv = csv;
  }

  /** Keys that differ without a rule to explain them and that no acknowledgement accepts. */
  KeyList unexpected() {
    List<Diff.KeyDiff> kept = keys(k -> !k.expected() && !acknowledged(k));
    long total = r.unexpectedKeys();
    Sentence sentence = cutSentence("unexpected", kept.size(), Math.min(kept.size(), SHOWN), total);
    return list("unexpected", "Unexpected differences", total, kept, SHOWN, sentence, hour -> {
      Map<String, Long> kinds = unexpectedKinds(hour);
      // An acknowledgement of single keys leaves the rest of the hour unexpected: those keys are not counted here.
      r.keys().stream().filter(k -> k.hour().equals(hour) && !k.expected() && acknowledged(k))
          .forEach(k -> kinds.computeIfPresent(Words.kind(k.kind()), (kind, n) -> Math.max(0, n - 1)));
      long n = r.unexpectedIn(hour);
      return new HourCount(n, Words.count(n, "unexpected key", "unexpected keys") + byKind(kinds));
    });
  }

  /** Unexpected keys that an operator accepted with a reason. */
  KeyList acknowledged() {
    List<Diff.KeyDiff> kept = keys(k -> !k.expected() && acknowledged(k));
    long total = 0;
    for (HourPartition hour : r.counts().keySet()) {
      total += unexpectedCounted(hour) - r.unexpectedIn(hour);
    }
    Sentence sentence = cutSentence("acknowledged", kept.size(), Math.min(kept.size(), SHOWN), total);
    return list("acknowledged", "Acknowledged differences", total, kept, SHOWN, sentence, hour -> {
      long n = unexpectedCounted(hour) - r.unexpectedIn(hour);
      Map<String, Long> kinds = wholeHourAcknowledged(hour) ? unexpectedKinds(hour) : new TreeMap<>();
      if (!wholeHourAcknowledged(hour)) {
        kept.stream().filter(k -> k.hour().equals(hour)).forEach(k -> kinds.merge(Words.kind(k.kind()), 1L, Long::sum));
      }
      return new HourCount(n, Words.count(n, "acknowledged key", "acknowledged keys") + byKind(kinds));
    });
  }

  /** A few keys that differ as a rule of the spec expects, to show what the rules matched. */
  KeyList expected() {
    List<Diff.KeyDiff> kept = keys(Diff.KeyDiff::expected);
    long total = r.expectedKeys();
    int shown = Math.min(kept.size(), EXAMPLES);
    Sentence sentence;
    if (total == 0) {
      sentence = new Sentence("No key differs as the rules expect.", "", "");
    } else if (csv.isPresent()) {
      sentence = new Sentence("Showing " + Words.count(shown) + " of " + Words.count(total) + " keys that differ as "
          + "the rules expect, as examples; ", csv.get(), " holds the " + Words.count(kept.size()) + " the "
          + "reconciliation kept and every hour's count by rule.");
    } else {
      sentence = new Sentence("Showing " + Words.count(shown) + " of " + Words.count(total) + " keys that differ as "
          + "the rules expect, as examples; the reconciliation keeps " + Words.count(kept.size()) + " examples and "
          + "counts every key by hour and rule.", "", "");
    }
    return list("expected", "Expected differences (examples)", total, kept, EXAMPLES, sentence, hour -> {
      Map<String, Long> rules = new TreeMap<>();
      r.counts().getOrDefault(hour, Map.of()).forEach((cls, n) -> {
        if (!cls.startsWith(Reconciliation.UNEXPECTED)) {
          rules.put(cls, n);
        }
      });
      long n = rules.values().stream().mapToLong(Long::longValue).sum();
      return new HourCount(n, Words.count(n, "key", "keys") + " as the rules expect" + byKind(rules));
    });
  }

  /** The key columns' headers, one per key column. */
  List<String> keyHeaders() {
    int n = r.keys().stream().mapToInt(k -> k.key().size()).max().orElse(columns.keys().size());
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(columns.keyName(i));
    }
    return out;
  }

  private KeyList list(String id, String title, long total, List<Diff.KeyDiff> kept, int limit, Sentence sentence,
      Function<HourPartition, HourCount> counts) {
    Map<HourPartition, List<Row>> byHour = new LinkedHashMap<>();
    for (Diff.KeyDiff k : kept.subList(0, Math.min(limit, kept.size()))) {
      byHour.computeIfAbsent(k.hour(), h -> new ArrayList<>()).add(row(k));
    }
    List<HourGroup> hours = new ArrayList<>();
    byHour.forEach((hour, rows) -> {
      HourCount count = counts.apply(hour);
      String shown = rows.size() < count.keys() ? " · " + Words.count(rows.size()) + " shown here" : "";
      hours.add(new HourGroup(hour + " UTC", count.text() + shown, notes(hour, id), rows));
    });
    return new KeyList(id, title, id.equals("expected") ? "rule" : "kind", total, Math.min(limit, kept.size()),
        sentence, hours);
  }

  private Row row(Diff.KeyDiff k) {
    List<Cells> cells = new ArrayList<>();
    for (Identifier m : measures) {
      String type = columns.type(m);
      Number v1 = k.v1().get(m);
      Number v2 = k.v2().get(m);
      cells.add(new Cells(k.rowsV1() == 0 ? "–" : MeasureFormat.format(v1, type),
          k.rowsV2() == 0 ? "–" : MeasureFormat.format(v2, type),
          MeasureFormat.format(MeasureFormat.delta(v1, v2, type), type), MeasureFormat.differs(v1, v2, type)));
    }
    // Over a sharded table, the shard that holds the key goes beside how it differs.
    return new Row(k.key(), k.rule().orElse(Words.kind(k.kind())) + k.shard().map(on -> " · on " + on).orElse(""), cells);
  }

  /** The keys the reconciliation kept that {@code which} selects, by hour and then by key. */
  private List<Diff.KeyDiff> keys(Predicate<Diff.KeyDiff> which) {
    Comparator<List<String>> byKey = (a, b) -> {
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        int c = a.get(i).compareTo(b.get(i));
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(a.size(), b.size());
    };
    return r.keys().stream().filter(which).sorted(Comparator.comparing(Diff.KeyDiff::hour)
        .thenComparing(Diff.KeyDiff::key, byKey)).toList();
  }

  private boolean acknowledged(Diff.KeyDiff k) {
    return r.acknowledged().stream().anyMatch(a -> Reconciliation.covers(a, k));
  }

  private boolean wholeHourAcknowledged(HourPartition hour) {
    return r.acknowledged().stream().anyMatch(a -> a.hour().equals(hour) && a.key().isEmpty());
  }

  /** Every key of the hour that differs unexpectedly, acknowledged or not, as ClickHouse counted them. */
  private long unexpectedCounted(HourPartition hour) {
    return r.counts().getOrDefault(hour, Map.of()).entrySet().stream()
        .filter(e -> e.getKey().startsWith(Reconciliation.UNEXPECTED)).mapToLong(Map.Entry::getValue).sum();
  }

  private Map<String, Long> unexpectedKinds(HourPartition hour) {
    Map<String, Long> kinds = new TreeMap<>();
    r.counts().getOrDefault(hour, Map.of()).forEach((cls, n) -> {
      if (cls.startsWith(Reconciliation.UNEXPECTED)) {
        kinds.put(Words.kind(Diff.Kind.valueOf(cls.substring(Reconciliation.UNEXPECTED.length()))), n);
      }
    });
    return kinds;
  }

  private static String byKind(Map<String, Long> kinds) {
    List<String> parts = kinds.entrySet().stream().filter(e -> e.getValue() > 0)
        .map(e -> Words.count(e.getValue()) + " " + e.getKey()).toList();
    return parts.isEmpty() ? "" : ": " + String.join(", ", parts);
  }

  private List<String> notes(HourPartition hour, String list) {
    if (!list.equals("acknowledged")) {
      return List.of();
    }
    return r.acknowledged().stream().filter(a -> a.hour().equals(hour))
        .map(a -> (a.key().isEmpty() ? "The whole hour" : "Key " + String.join(", ", a.key())) + " was acknowledged by "
            + a.by() + " at " + AT.format(a.at()) + " UTC: " + a.reason())
        .toList();
  }

  /**
   * What is shown of a list of {@code total} keys, of which the reconciliation kept {@code kept}: all of
   * them, or a part with where the whole list is.
   */
  private Sentence cutSentence(String word, int kept, int shown, long total) {
    if (total == 0) {
      return new Sentence(word.equals("unexpected") ? "No key differs unexpectedly."
          : "No difference is acknowledged.", "", "");
    }
    if (shown >= total) {
      return new Sentence(total == 1 ? "The one " + word + " key is listed below." : "All " + Words.count(total)
          + " " + word + " keys are listed below, by hour.", "", "");
    }
    String showing = "Showing " + Words.count(shown) + " of " + Words.count(total) + " " + word + " keys; ";
    long limit = r.counts().keySet().stream().mapToLong(this::unexpectedCounted).sum();
    if (kept >= total) {
      return csv.map(name -> new Sentence(showing + "the whole list is in ", name, "."))
          .orElseGet(() -> new Sentence(showing + "an export of this reconciliation as CSV writes the whole list.", "",
              ""));
    }
    String keepAll = "a reconciliation that keeps at least " + Words.count(limit) + " keys, exported again, lists "
        + "every one.";
    if (kept == 0) {
      return new Sentence(showing + "the reconciliation kept none of them (it keeps at most as many keys as it is "
          + "asked for); " + keepAll, "", "");
    }
    return csv.map(name -> new Sentence(showing + "the reconciliation kept " + Words.count(kept) + " of them, all in ",
            name, "; " + keepAll))
        .orElseGet(() -> new Sentence(showing + "the reconciliation kept " + Words.count(kept) + " of them; an export "
            + "of this reconciliation as CSV writes them all, and " + keepAll, "", ""));
  }
}
