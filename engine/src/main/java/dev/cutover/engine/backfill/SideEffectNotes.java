package dev.cutover.engine.backfill;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.ledger.StateStore;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dependents a backfill run was allowed to replay history through, kept in the audit trail: one
 * line per acknowledged dependent, about the run, written when it starts or resumes and before it
 * writes any hour, so that whoever reads the trail later finds who accepted which side effect, when,
 * and why.
 */
public final class SideEffectNotes {

  /** The audit trail's action for an acknowledged dependent. */
  public static final String ACTION = "acknowledge side effect";

  /** A line's detail; the reason comes last and holds no line break, so the first match is the line's own. */
  private static final Pattern DETAIL = Pattern.compile("(.+?) \\(reads (.+?)\\), acknowledged for repair (\\S+?): (.*)");

  private final StateStore store;

  public SideEffectNotes(StateStore store) {
    this.store = store;
  }

  /** Writes one line about run {@code runId} of repair {@code repairId} for each acknowledged dependent. */
  void record(String runId, String repairId, List<Dependent> dependents) {
    for (Dependent d : dependents) {
      d.reason().ifPresent(reason -> store.audit(runId, ACTION, d.name() + " (reads " + d.reads()
          + "), acknowledged for repair " + repairId + ": " + reason));
    }
  }

  /** The acknowledgements the runs of {@code target} ({@code database.table}) wrote, newest first. */
  public List<SideEffectAcknowledgement> read(String target) {
    return store.runAudit(target, ACTION).stream().flatMap(a -> parse(a).stream()).toList();
  }

  private static Optional<SideEffectAcknowledgement> parse(AuditEntry a) {
    Matcher m = DETAIL.matcher(a.detail());
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new SideEffectAcknowledgement(m.group(1), m.group(2), m.group(4), a.subject(), m.group(3),
        a.at(), a.actor(), a.host()));
  }
}
