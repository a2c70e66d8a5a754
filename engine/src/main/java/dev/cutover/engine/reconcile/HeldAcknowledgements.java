package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.Reconciliation.Fingerprint;
import dev.cutover.engine.api.TableSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether an acknowledgement still holds: the unexpected differences of its hour (or key) now are those it
 * was made for. A whole hour accepted with one key does not accept fifty; a key accepted once does not
 * accept the same key appended again.
 */
final class HeldAcknowledgements {

  /**
   * How far a floating-point measure's sum may move between two reads of the same rows, relative to its
   * size: the order in which the server adds floats is not fixed. Anything larger is a change.
   */
  static final BigDecimal FLOAT_RELATIVE = new BigDecimal("1e-6");

  private HeldAcknowledgements() {}

  /**
   * Each acknowledgement that held, judged against its hour's (or key's) differences now; those that moved
   * come back lapsed, saying what was accepted and what is there now.
   */
  static List<Acknowledgement> judge(Differ differ, TableSpec spec, List<Acknowledgement> acks) {
    List<Acknowledgement> out = new ArrayList<>();
    for (Acknowledgement a : acks) {
      if (!a.holds()) {
        out.add(a);
        continue;
      }
      Fingerprint now = differ.fingerprint(spec.liveTable(), spec.targetTable(), a.hour(), a.key());
      Fingerprint then = a.seen().orElseThrow();
      out.add(same(then, now, differ.kinds()) ? a : a.lapse("the acknowledged " + (a.key().isEmpty() ? "hour" : "key")
          + " changed since it was acknowledged: then " + then.describe() + "; now " + now.describe()
          + ". Review it and acknowledge it again, or fix the data"));
    }
    return out;
  }

  /** The same differences: the same keys with the same kinds and rows, and each measure's sum the same. */
  static boolean same(Fingerprint then, Fingerprint now, Map<Identifier, Rules.Kind> kinds) {
    if (then.keys() != now.keys() || then.hash() != now.hash() || !then.kinds().equals(now.kinds())
        || !then.deltas().keySet().equals(now.deltas().keySet())) {
      return false;
    }
    for (var e : then.deltas().entrySet()) {
      String other = now.deltas().get(e.getKey());
      boolean floating = kinds.getOrDefault(Identifier.of(e.getKey()), Rules.Kind.OTHER) == Rules.Kind.FLOAT;
      if (!(floating ? close(e.getValue(), other) : equal(e.getValue(), other))) {
        return false;
      }
    }
    return true;
  }

  private static boolean equal(String a, String b) {
    try {
      return new BigDecimal(a).compareTo(new BigDecimal(b)) == 0;
    } catch (NumberFormatException e) {
      return a.equals(b);
    }
  }

  private static boolean close(String a, String b) {
    try {
      BigDecimal x = new BigDecimal(a);
      BigDecimal y = new BigDecimal(b);
      BigDecimal scale = BigDecimal.ONE.max(x.abs()).max(y.abs());
      return x.subtract(y).abs().compareTo(scale.multiply(FLOAT_RELATIVE)) <= 0;
    } catch (NumberFormatException e) {
      return a.equals(b);
    }
  }
}
