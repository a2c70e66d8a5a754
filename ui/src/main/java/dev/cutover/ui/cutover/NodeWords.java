package dev.cutover.ui.cutover;

import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.ui.common.Formats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the cutover screen says of each node of a sharded table: the version it reads, its gate, its switch. */
final class NodeWords {

  private NodeWords() {}

  static String version(Gate.Version v) {
    return v == Gate.Version.UNKNOWN ? "neither version" : v.name().toLowerCase(Locale.ROOT);
  }

  /** Each node's line, then each of its unmet conditions indented under it. */
  static List<String> gates(List<CutoverSteps.Node> nodes, Instant at) {
    List<String> lines = new ArrayList<>();
    for (CutoverSteps.Node n : nodes) {
      lines.add(n.node() + ": reads " + version(n.reads()) + "; " + n.gate().step() + " gate " + (n.gate().open()
          ? "open" : "closed") + " (judged at " + Formats.clock(at) + ")");
      n.gate().unmet().forEach(c -> lines.add("    " + c.name() + ": " + c.detail()));
    }
    return lines;
  }

  static List<String> started(String action, int nodes) {
    return List.of(action + " from " + Formats.time(Instant.now()) + " on " + nodes + " nodes, one at a time, all or "
        + "nothing:");
  }

  static String switched(ShardRef node, SwapResult r) {
    return node + ": reads " + version(r.after()) + "; " + (r.verified() ? "" : "not verified: ") + r.verification();
  }
}
