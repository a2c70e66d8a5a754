package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import java.util.Optional;

/**
 * Declarations that the corrected live writer of a repair was deployed, kept in the audit trail. The
 * trail only grows and needs no compare-and-set, so a declaration never races a backfill that holds
 * the repair; each names its repair and boundary, so one of an abandoned repair never counts for the
 * next.
 */
public final class LiveWriterNotes {

  /** The audit trail's action for a declaration. */
  public static final String ACTION = "deploy live writer";

  /** The longest writer's description kept: a job's name and version, not a changelog. */
  static final int MAX_WRITER = 200;

  private final StateStore store;
  private final TableSpec spec;
  private final Repairs repairs;

  LiveWriterNotes(StateStore store, TableSpec spec, Repairs repairs) {
    this.store = store;
    this.spec = spec;
    this.repairs = repairs;
  }

  /**
   * Declares the open repair's corrected live writer deployed. Declaring the same writer again writes
   * nothing and returns the first declaration, as not written.
   *
   * @throws InvalidInputException when {@code writer} is blank, longer than 200 characters or has a
   *     control character; nothing is written
   * @throws StepRefusedException when there is no open repair with a boundary, or its live writer is the
   *     corrected view that {@code deploy-live} created
   */
  public LiveWriterNote.Declared declare(String writer) {
    String words = words(writer, spec);
    Optional<Repair> open = repairs.open();
    Optional<Refusal> refusal = refusal(open);
    if (refusal.isPresent()) {
      throw new StepRefusedException("declare-live", switch (refusal.get()) {
        case NO_BOUNDARY -> "The target " + repairs.target() + " has no repair under way with a boundary B, so no "
            + "live writer can start there yet: run the backfill first (its first run pins B), then deploy the "
            + "corrected writer from B and declare it.";
        case CORRECTED_VIEW -> "Repair " + open.get().id() + " writes " + repairs.target() + " live through the "
            + "corrected view " + open.get().correctedViews().orElseThrow() + " that deploy-live created; it has no other writer "
            + "to declare.";
        case CUT_OVER -> "Repair " + open.get().id() + " is cut over: consumers already read " + repairs.target()
            + ", whose live writer was proven before the cutover.";
      });
    }
    Repair r = open.get();
    Optional<LiveWriterNote> before = newest(r);
    if (before.isPresent() && before.get().writer().equals(words)) {
      return new LiveWriterNote.Declared(before.get(), false);
    }
    store.ensureSchema();
    store.audit(repairs.target(), ACTION, prefix(r) + words);
    return new LiveWriterNote.Declared(newest(r).orElseThrow(), true);
  }

  /** Why a repair can take no declaration of its live writer. */
  public enum Refusal {
    /** No repair is under way, or it has not pinned B yet. */
    NO_BOUNDARY,
    /** Its live writer is the corrected view that deploy-live created. */
    CORRECTED_VIEW,
    /** Consumers read v2 already: its live writer was proven before the cutover. */
    CUT_OVER
  }

  /** Why the open repair {@code open} can take no declaration; empty when it can. */
  public static Optional<Refusal> refusal(Optional<Repair> open) {
    if (open.flatMap(Repair::boundary).isEmpty()) {
      return Optional.of(Refusal.NO_BOUNDARY);
    }
    if (!open.get().liveViews().isEmpty()) {
      return Optional.of(Refusal.CORRECTED_VIEW);
    }
    return open.get().phase() == RepairPhase.CUT_OVER ? Optional.of(Refusal.CUT_OVER) : Optional.empty();
  }

  /** The newest declaration for repair {@code r}; empty when nobody declared its writer deployed. */
  public Optional<LiveWriterNote> newest(Repair r) {
    if (r.boundary().isEmpty()) {
      return Optional.empty();
    }
    String prefix = prefix(r);
    HourPartition b = r.boundary().get();
    return store.newestAudit(repairs.target(), ACTION, prefix).map(a -> new LiveWriterNote(r.id(), b,
        a.detail().substring(prefix.length()), a.at(), a.actor(), a.host()));
  }

  /** What every declaration of repair {@code r} starts with, before the writer's words. */
  private static String prefix(Repair r) {
    return "repair " + r.id() + " (B = " + r.boundary().orElseThrow() + "): ";
  }

  /**
   * The writer's description as it is kept: stripped, on one line of at most 200 characters.
   *
   * @throws InvalidInputException otherwise, saying how to give it
   */
  public static String words(String writer, TableSpec spec) {
    String words = writer == null ? "" : writer.strip();
    if (words.isEmpty()) {
      throw new InvalidInputException("writer", "Say which writer was deployed, such as the job's name and version "
          + "(--writer \"pnl-job 2.4.1\"); it goes to the audit trail of " + spec.name() + ".");
    }
    if (words.length() > MAX_WRITER) {
      throw new InvalidInputException("writer", "The writer's description has " + words.length() + " characters; "
          + "keep it to " + MAX_WRITER + ", such as the job's name and version.");
    }
    if (words.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidInputException("writer", "The writer's description has a line break or another control "
          + "character; give it on one line.");
    }
    return words;
  }
}
