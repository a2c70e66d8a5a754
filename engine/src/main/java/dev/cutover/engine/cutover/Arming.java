package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.NameClaims;
import dev.cutover.engine.tables.TableNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The armed cutover of one target, kept as a claim in the working database (one per target, made by
 * compare-and-set, so that two operators cannot arm it at once) with a line of the audit trail for each arm and
 * disarm. Arming checks what a click on Cut over would check first (the typed consumer view, consumers on v1), and
 * a window between a minute and {@link #LONGEST}; the switch itself is the ordinary cutover, its gate judged again.
 */
public final class Arming {

  /** The longest window an arm may have: past it, the data the operator judged is too old to act on. */
  public static final Duration LONGEST = Duration.ofDays(7);

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final StateStore state;
  private final TableSpec spec;
  private final NameClaims claims;
  private final String name;

  public Arming(RepairContext on) {
    this.state = on.state();
    this.spec = on.spec();
    this.claims = new NameClaims(on.sql(), Identifier.simple("database", on.state().database()));
    this.name = claimName(TableNames.target(on.spec()));
  }

  /** What the claim's note keeps: the arm, its instants in epoch milliseconds. */
  private record Note(String target, long at, long until, String by) {}

  static String claimName(String target) {
    return NameClaims.nameFor("cutover_armed", target);
  }


  /**
   * Arms the cutover for {@code window} from now, once {@code confirmation} names the consumer view; refused,
   * nothing written, while consumers read v2 ({@code reads}) or the cutover is armed already.
   */
  public Armed arm(String confirmation, Duration window, Gate.Version reads) {
    if (!spec.consumerView().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To arm the cutover, confirm with the consumer view's name, "
          + spec.consumerView() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '" + confirmation
          + "')") + ".");
    }
    if (window == null || window.compareTo(Duration.ofMinutes(1)) < 0 || window.compareTo(LONGEST) > 0) {
      throw new InvalidInputException("window", "The window of an armed cutover must be between 1 minute and "
          + LONGEST.toDays() + " days (--window 30m, 2h, 1d); arm it again with one in that range.");
    }
    if (reads == Gate.Version.V2) {
      throw new StepRefusedException("arm", "Consumers of " + spec.consumerView() + " read v2 already: there is no "
          + "cutover to arm.", List.of("consumers read v2"), Optional.empty());
    }
    Instant at = Instant.now();
    Armed armed = new Armed(TableNames.target(spec), at, at.plus(window), Operator.user() + "@" + Operator.host());
    Note note = new Note(armed.target(), armed.at().toEpochMilli(), armed.until().toEpochMilli(), armed.by());
    if (!claims.claim("arm the cutover of " + armed.target(), name, JSON.writeValueAsString(note))) {
      String other = armed().map(Armed::describe).orElse("armed by another operator");
      throw new StepRefusedException("arm", "The cutover of " + armed.target() + " is " + other + " already; disarm "
          + "it first (cutover --disarm) to arm it with another window.", List.of("armed already"), Optional.empty());
    }
    state.audit(armed.target(), "arm", "armed the cutover of " + spec.consumerView() + " until "
        + Figures.time(armed.until()) + ": consumers switch to v2 the first time the gate opens before then");
    return armed;
  }

  /** The arm in force, when there is one (its window may have passed; the next turn removes it). */
  public Optional<Armed> armed() {
    return claims.find("read the armed cutover of " + TableNames.target(spec), name).flatMap(c -> {
      try {
        Note n = JSON.readValue(c.note(), Note.class);
        return Optional.of(new Armed(n.target(), Instant.ofEpochMilli(n.at()), Instant.ofEpochMilli(n.until()), n.by()));
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    });
  }

  /**
   * Removes the arm, with {@code why} in the audit trail; empty when nothing was armed. A claim whose note cannot be
   * read is removed too: it would otherwise refuse every arm.
   */
  public Optional<Armed> disarm(String why) {
    Optional<Armed> was = armed();
    boolean there = was.isPresent() || claims.find("read the armed cutover of " + TableNames.target(spec), name)
        .isPresent();
    if (there) {
      claims.dropQuietly(name);
      state.audit(TableNames.target(spec), "disarm", "the armed cutover (" + was.map(Armed::describe)
          .orElse("its record unreadable") + ") is disarmed: " + why);
    }
    return was;
  }

  /**
   * Takes the arm for the switch: true for exactly one caller while it is armed (the claim dropped without IF
   * EXISTS); false when it was disarmed or taken first.
   */
  public boolean take(Armed armed) {
    return claims.drop("take the armed cutover of " + armed.target(), name);
  }

  /** Puts back an arm taken for a switch that was refused; an arm made meanwhile by another operator is kept. */
  public void restore(Armed armed) {
    Note note = new Note(armed.target(), armed.at().toEpochMilli(), armed.until().toEpochMilli(), armed.by());
    claims.claim("put back the armed cutover of " + armed.target(), name, JSON.writeValueAsString(note));
  }

  /** A line of the audit trail about the arm. */
  public void audit(String detail) {
    state.audit(TableNames.target(spec), "disarm", detail);
  }
}
