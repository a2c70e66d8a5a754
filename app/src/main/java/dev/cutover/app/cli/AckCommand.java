package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "ack", mixinStandardHelpOptions = true,
    description = {"Accept an unexpected difference (a whole hour, or one key) with a written reason; it goes to the audit "
        + "trail and belongs to the repair under way: a new repair starts without it. The acknowledgement is bound to "
        + "the differences there now (their keys, kinds and sums, printed): once they change, it accepts nothing and "
        + "the verdict turns red saying so. Reconcile again to see the verdict.",
        "Refused (exit 2, nothing written): an hour outside the repair's window or not yet written by both versions, "
            + "key values that do not parse as the key columns' types, an hour or key with no unexpected difference.",
        "--withdraw takes an acknowledgement in force back, with a reason."})
public final class AckCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--hour", paramLabel = "HOUR", required = true, description = "The hour of the difference, UTC.")
  String hour;

  @Option(names = "--key", paramLabel = "VALUE", description = "The key's values in the spec's key order, as the "
      + "reconciliation lists them; repeat for each. Leave out for the whole hour.")
  List<String> key = new ArrayList<>();

  @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why the difference is acceptable "
      + "(with --withdraw: why the acknowledgement is taken back).")
  String reason;

  @Option(names = "--withdraw", description = "Take back the acknowledgement in force of this hour (or key) instead.")
  boolean withdraw;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    HourPartition h = HourPartition.parse("hour (--hour)", hour);
    if (!key.isEmpty() && key.size() != spec.keys().size()) {
      throw new InvalidInputException("key", "--key was given " + key.size() + " time(s), but the "
          + "spec's key has " + spec.keys().size() + " columns " + spec.keys() + "; give one --key per column, in order.");
    }
    // On a sharded table, accepted on the shards where the hour (or key) differs, each bound to its differences there.
    return onRepair(engine, spec, (repair, finished) -> ack(h, repair.reconciliations(), on(repair,
        repair.reconciliations().where())));
  }

  /** On one server, or on every shard of a sharded table ({@code on} says so): the same words and document. */
  private int ack(HourPartition h, dev.cutover.engine.ReconcileSteps steps, String on) {
    if (withdraw) {
      Reconciliation.Acknowledgement taken = steps.withdraw(h, key, reason);
      print(AckDocument.of(true, taken.hour(), taken.key(), reason.strip(), taken.seen().orElse(
          Reconciliation.Fingerprint.NONE)), List.of("Withdrew the acknowledgement of " + Text.hour(h)
              + (taken.key().isEmpty() ? " (whole hour)" : " key " + taken.key()) + " made by " + taken.by() + on
              + ". Its differences count as unexpected again: run reconcile again to see the verdict."));
      return ExitCodes.OK;
    }
    // What is accepted is what differs now: the acknowledgement is bound to these differences.
    Reconciliation.Fingerprint accepted = steps.acknowledge(h, key, reason, steps.differences(h, key));
    print(AckDocument.of(false, h, key, reason.strip(), accepted), List.of("Acknowledged " + Text.hour(h)
        + (key.isEmpty() ? " (whole hour)" : " key " + key) + on + ": " + accepted.describe() + ". Once these "
        + "differences change, the acknowledgement accepts nothing. Run reconcile again to see the verdict."));
    return ExitCodes.OK;
  }

  /** {@code ack --json}: what was acknowledged (or withdrawn), and the differences it accepted(ed). */
  record AckDocument(String command, java.time.Instant hour, boolean wholeHour, List<String> key, String reason,
      boolean withdrawn, Accepted accepted) {

    static AckDocument of(boolean withdrawn, HourPartition hour, List<String> key, String reason,
        Reconciliation.Fingerprint f) {
      return new AckDocument("ack", hour.start(), key.isEmpty(), key, reason, withdrawn, Accepted.of(f));
    }
  }

  /** A fingerprint: the unexpected keys, how many of each kind, each measure's sum of v2 - v1 as exact text. */
  record Accepted(long keys, java.util.Map<String, Long> kinds, java.util.Map<String, String> sums, String description) {

    static Accepted of(Reconciliation.Fingerprint f) {
      java.util.Map<String, Long> kinds = new java.util.TreeMap<>();
      f.kinds().forEach((k, n) -> kinds.put(k.toLowerCase(java.util.Locale.ROOT), n));
      return new Accepted(f.keys(), kinds, f.deltas(), f.describe());
    }
  }
}
