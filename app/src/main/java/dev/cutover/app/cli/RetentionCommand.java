package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "retention", mixinStandardHelpOptions = true,
    description = {"Show until when v1 must be kept after the cutover; --drop-v1 drops it after that (or earlier with "
        + "--force and --reason).", Safety.DROP_V1})
public final class RetentionCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--drop-v1", description = "Drop v1 and the rollback view.")
  boolean drop;

  @Option(names = "--force", description = "Drop before the retention horizon (needs --reason).")
  boolean force;

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why v1 is dropped early; goes to the audit trail.")
  String reason;

  @Option(names = "--acknowledge", paramLabel = "DB.TABLE", description = "A table that still uses v1 (a view or "
      + "materialized view) and breaks when it is dropped; --drop-v1 refuses until each is named.")
  List<String> acknowledged = new ArrayList<>();

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    return onRepair(engine, spec, (repair, finished) -> retention(repair.cutovers()));
  }

  /** On one server, or on every node of a cluster: v1 is kept until the last node's horizon, and dropped on all. */
  private int retention(dev.cutover.engine.CutoverSteps steps) {
    Retention r = steps.retention();
    List<String> lines = new ArrayList<>();
    lines.add("Keep v1 for " + Text.duration(r.total()) + " after the cutover: longest consumer cache "
        + Text.duration(r.longestCache()) + " (" + r.longestCacheConsumer() + ") + reconciliation window "
        + Text.duration(r.reconciliationWindow()) + " + margin " + Text.duration(r.margin()) + ".");
    lines.add(r.droppedAt().map(t -> "v1 was dropped at " + Text.time(t) + "; there is no rollback any more.")
        .orElse(r.keepUntil().map(t -> "Cut over at " + Text.time(r.cutoverAt().get()) + "; v1 may be dropped after "
            + Text.time(t) + ".").orElse("Consumers still read v1; the horizon starts at the cutover.")));
    List<V1Reader> readers = steps.v1Readers();
    if (!readers.isEmpty() && r.droppedAt().isEmpty()) {
      lines.add("Still using v1 (each breaks when it is dropped): " + String.join(", ", readers.stream()
          .map(Object::toString).toList()) + ".");
    }
    List<String> dropped = drop ? steps.dropV1(force, reason, acknowledged) : List.of();
    dropped.forEach(d -> lines.add("dropped " + d));
    print(SwapDocuments.RetentionDocument.of(r, readers, dropped), lines);
    return ExitCodes.OK;
  }
}
