package dev.cutover.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Timed pairs of a baseline (a floor) and a measured run, compared as a ratio: the measured run's seconds over the
 * baseline's. The side that runs first alternates from pair to pair, pair 1 the baseline first, pair 2 the measured
 * run first, and so on, so that what the first of a pair meets and the second does not (the drop just before, a
 * cache the other warmed, a machine whose load rises) falls on both sides alike. The figure that stands is the
 * median of the pairs' ratios, with their min and max; fewer than {@link #HEADLINE_PAIRS} pairs make no headline.
 */
final class PairSeries {

  /** The fewest pairs whose median is a headline figure. */
  static final int HEADLINE_PAIRS = 3;

  /** What one side of a pair did: a table row's description, its seconds, the hours and rows it wrote (0: none told). */
  record Timed(String what, double seconds, long hours, long rows) {}

  /** One side of a pair: runs once and answers what it did. */
  interface Side {
    Timed run() throws Exception;
  }

  /** One pair: both sides as they ran, and which of them ran first. */
  record Pair(int number, boolean baselineFirst, Timed baseline, Timed measured) {

    double ratio() {
      return measured.seconds() / baseline.seconds();
    }

    /** The same pair with another measured figure, for a second ratio against the same baseline. */
    Pair withMeasured(Timed other) {
      return new Pair(number, baselineFirst, baseline, other);
    }
  }

  private final String baselineName;
  private final String measuredName;
  private final List<Pair> pairs = new ArrayList<>();

  /** A series whose sides are called {@code baselineName} and {@code measuredName} in its labels ("floor first"). */
  PairSeries(String baselineName, String measuredName) {
    this.baselineName = baselineName;
    this.measuredName = measuredName;
  }

  /** Whether pair {@code number} (from 1) runs its baseline first: the odd ones do. */
  static boolean baselineFirst(int number) {
    return number % 2 == 1;
  }

  /** Runs the next pair, its sides in the order its number gives, and keeps it. */
  Pair run(Side baseline, Side measured) throws Exception {
    int number = pairs.size() + 1;
    boolean first = baselineFirst(number);
    Timed b;
    Timed m;
    if (first) {
      b = baseline.run();
      m = measured.run();
    } else {
      m = measured.run();
      b = baseline.run();
    }
    return add(new Pair(number, first, b, m));
  }

  /** Keeps a pair timed elsewhere: a second figure of the same runs ({@link Pair#withMeasured}). */
  Pair add(Pair pair) {
    if (pair.number() != pairs.size() + 1) {
      throw new IllegalArgumentException("pair " + pair.number() + " follows pair " + pairs.size());
    }
    pairs.add(pair);
    return pair;
  }

  List<Pair> pairs() {
    return List.copyOf(pairs);
  }

  /** Which side of pair {@code number} ran first, in words: "floor first". */
  String order(int number) {
    return (baselineFirst(number) ? baselineName : measuredName) + " first";
  }

  /** The label of pair {@code number}'s rows: "pair 2, backfill first". */
  String label(int number) {
    return "pair " + number + ", " + order(number);
  }

  /** The median of the pairs' ratios; NaN without a pair. */
  double median() {
    List<Double> sorted = ratios().stream().sorted().toList();
    int n = sorted.size();
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  double min() {
    return ratios().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  double max() {
    return ratios().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  private List<Double> ratios() {
    return pairs.stream().map(Pair::ratio).toList();
  }

  /** Each pair's ratio and which side ran first, in the order they ran: "0.95× (floor first), 0.91× (backfill first)". */
  String each() {
    return String.join(", ", pairs.stream().map(p -> ratio(p.ratio()) + " (" + order(p.number()) + ")").toList());
  }

  /**
   * The cells of the series' row in a summary table (what, pairs, median, min, max, each pair): the median in bold
   * when there are enough pairs for a headline, marked as too few otherwise.
   */
  List<String> cells(String what) {
    String median = pairs.size() >= HEADLINE_PAIRS ? "**" + ratio(median()) + "**"
        : ratio(median()) + " (fewer than " + HEADLINE_PAIRS + " pairs: no headline)";
    return List.of(what, Integer.toString(pairs.size()), median, ratio(min()), ratio(max()), each());
  }

  /** The header of the summary table {@link #cells} fills. */
  static final List<String> COLUMNS = List.of("ratio", "pairs", "median", "min", "max", "each pair (which ran first)");

  /** Both rows of {@code pair} in the order they ran, labelled with the pair, the ratio on the measured side's. */
  void print(Pair pair, Report report) {
    String label = label(pair.number()) + ": ";
    if (pair.baselineFirst()) {
      row(report, label, pair.baseline(), 0);
      row(report, label, pair.measured(), pair.ratio());
    } else {
      row(report, label, pair.measured(), pair.ratio());
      row(report, label, pair.baseline(), 0);
    }
  }

  /**
   * One pair before the timed ones, baseline first, kept nowhere: its rows are printed as a warm-up. For a series
   * whose first pair would otherwise be the first work on a file system no drop had touched yet.
   */
  static void warmUp(Side baseline, Side measured, Report report) throws Exception {
    for (Side side : List.of(baseline, measured)) {
      row(report, "warm-up, not counted: ", side.run(), 0);
    }
  }

  private static void row(Report report, String label, Timed timed, double ratio) {
    report.row(label + timed.what(), timed.seconds(), timed.hours(), timed.rows(), ratio);
  }

  private static String ratio(double value) {
    return String.format("%.2f×", value);
  }
}
