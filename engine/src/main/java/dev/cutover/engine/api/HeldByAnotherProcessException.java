package dev.cutover.engine.api;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A step refused because another process holds the repair or the target: a backfill run, a cutover,
 * a rollback or a drop of v1 under way. Nothing was changed; the same step can succeed once the
 * holder ends, so a script may try again later.
 *
 * <pre>{@code
 * catch (HeldByAnotherProcessException held) {
 *   out.println(held.user() + "@" + held.host() + " has held it since " + held.since() + held.runId().map(r -> ", run " + r).orElse(""));
 * }
 * }</pre>
 */
public final class HeldByAnotherProcessException extends StepRefusedException {

  private final String action;
  private final Optional<String> runId;
  private final Repair.Actor actor;
  private final Instant since;

  /**
   * @param action what the holder does: {@code backfill}, {@code cutover}, {@code rollback}, {@code drop of v1}; or,
   *     when the process that won a race has already let go, what it recorded ({@code recorded reconciled})
   * @param runId the backfill run that holds it, when a run does
   * @param actor the holder's user, host and process id
   * @param since when the holder took it
   */
  public HeldByAnotherProcessException(String step, String action, Optional<String> runId, Repair.Actor actor,
      Instant since, String situation, String whatToDo) {
    super(step, situation, whatToDo, List.of(), Optional.of(actor), List.of());
    this.action = action;
    this.runId = runId.filter(r -> !r.isEmpty());
    this.actor = actor;
    this.since = since;
  }

  /** The holder of a repair, from its operation under way. */
  public static HeldByAnotherProcessException of(String step, Repair.Operation op, String situation, String whatToDo) {
    return new HeldByAnotherProcessException(step, op.action(), Optional.of(op.runId()), op.holder(), op.since(),
        situation, whatToDo);
  }

  /** The holder of a target, from the record of the run that writes it. */
  public static HeldByAnotherProcessException of(String step, RunRecord run, String situation, String whatToDo) {
    return new HeldByAnotherProcessException(step, Repair.Operation.BACKFILL, Optional.of(run.id()),
        new Repair.Actor(run.osUser(), run.host(), run.pid()), run.created(), situation, whatToDo);
  }

  /**
   * The writer that won a race for the repair's next record and has let go since: it recorded {@code recorded}.
   * The same step, tried again, meets the repair as that writer left it.
   */
  public static HeldByAnotherProcessException of(String step, Repair recorded, String situation, String whatToDo) {
    return new HeldByAnotherProcessException(step, "recorded " + recorded.phase().words(), Optional.empty(),
        recorded.by(), recorded.at(), situation, whatToDo);
  }

  /** The same holder, told in another sentence: a step over several shards that one shard's holder refused. */
  public HeldByAnotherProcessException restated(String step, String sentence) {
    return new HeldByAnotherProcessException(step, action, runId, actor, since, sentence, "");
  }

  public String action() {
    return action;
  }

  public Optional<String> runId() {
    return runId;
  }

  public Repair.Actor actor() {
    return actor;
  }

  public String user() {
    return actor.user();
  }

  public String host() {
    return actor.host();
  }

  public Instant since() {
    return since;
  }

  /** Holders end: the same step, unchanged, can succeed later. */
  @Override
  public boolean retryable() {
    return true;
  }
}
