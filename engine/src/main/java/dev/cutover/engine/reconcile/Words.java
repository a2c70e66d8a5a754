package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import java.util.List;
import java.util.Locale;

/** Small pieces of the report's English: lists, counts and kinds of difference. */
final class Words {

  private Words() {}

  /** {@code a}, {@code a and b}, {@code a, b and c}. */
  static String list(List<String> items) {
    if (items.size() <= 1) {
      return items.isEmpty() ? "" : items.getFirst();
    }
    return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.getLast();
  }

  /** A count with thousands separated: {@code 12,345}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 1 key}, {@code 12,345 keys}. */
  static String count(long n, String singular, String plural) {
    return count(n) + " " + (n == 1 ? singular : plural);
  }

  /** How a key differs, in words: {@code only in v1}, {@code duplicate in v2}, {@code changed}. */
  static String kind(Diff.Kind kind) {
    return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
