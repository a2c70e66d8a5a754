package dev.cutover.app.demo;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.util.Optional;

/**
 * The demo's live job, once deployed with the corrected logic, declared as the repair's live writer in
 * its audit trail, as an operator declares theirs with {@code declare-live}: the repair then waits for
 * the job's first hour from B instead of asking for its deployment.
 */
public final class DemoWriterDeclaration {

  /** How the audit trail names the demo's corrected writer. */
  public static final String WRITER = "the demo's live job with the corrected logic";

  private DemoWriterDeclaration() {}

  /**
   * Declares the job deployed from {@code boundary} for the demo's open repair, when that repair pinned
   * the same B and has no corrected view; otherwise there is no repair it could be the writer of.
   */
  public static Optional<LiveWriterNote> declare(Engine engine, DemoWorld world, Instant boundary) {
    TableSpec spec = DemoSpec.load(world.database().name());
    return engine.repairs().takesLiveWriterFrom(spec, HourPartition.of(boundary))
        ? Optional.of(engine.repairs().declareLiveWriter(spec, WRITER).note()) : Optional.empty();
  }
}
