package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "declare-live", mixinStandardHelpOptions = true,
    description = {"Record that the corrected live writer, a job outside the database (a stream processor, a "
        + "scheduled job), has been deployed to write the target from the repair's boundary B. The repair then waits "
        + "for the writer's first hour instead of asking for its deployment, and the audit trail says who deployed "
        + "what and when. Declaring the same writer again changes nothing.", Safety.DECLARE_LIVE})
public final class DeclareLiveCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--writer", paramLabel = "TEXT", required = true,
      description = "What was deployed, on one line of at most 200 characters, such as the job's name and version.")
  String writer;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    return onRepair(engine, spec, (repair, finished) -> {
      // On a cluster, declared on every shard from their one B, or on none.
      LiveWriterNote.Declared declared = repair.backfills().declareLiveWriter(writer).whole();
      return said(spec, declared, on(repair, repair.backfills().where()));
    });
  }

  private int said(TableSpec spec, LiveWriterNote.Declared declared, String on) {
    LiveWriterNote note = declared.note();
    boolean written = declared.written();
    print(new DeclareLiveDocument("declare-live", written ? "declared" : "already declared", note.repairId(),
        spec.database().name() + "." + spec.targetTable().name(), note.boundary().start(), note.writer(), note.at(),
        note.actor() + "@" + note.host()), List.of(
            (written ? "Declared" : "Already declared") + ": " + note.writer() + " writes " + spec.targetTable()
                + on + " from B = " + Text.hour(note.boundary()) + " for repair " + note.repairId() + " (by " + note.actor()
                + "@" + note.host() + " at " + Text.time(note.at()) + ").",
            "Its hours are read from the data: ./cutover status --spec " + specFile.shown() + " says where it starts."));
    return ExitCodes.OK;
  }

  /** {@code declare-live --json}: the declaration that stands. */
  record DeclareLiveDocument(String command, String state, String repair, String target, Instant boundary,
      String writer, Instant declaredAt, String declaredBy) {}
}
