package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.Reconciliation.Fingerprint;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Accepting an unexpected difference, and taking an acceptance back. An acknowledgement is bound to what
 * the operator saw: it names an hour of the repair that both versions have written (or one key of it,
 * its values checked against the key columns' types) that differs unexpectedly now, and it records the
 * fingerprint of those differences. Anything else is refused before it is written: an hour outside the
 * repair's window or not yet written by both versions, a key that does not parse, an hour or key with no
 * unexpected difference to accept.
 */
public final class Acknowledging {

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final Repairs repairs;

  public Acknowledging(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.state = on.state();
    this.reports = on.reports();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
  }

  /** What an acknowledgement of {@code hour} (and {@code key}) would accept now: checked, not written. */
  public record Subject(Repair repair, HourPartition hour, List<String> key, Fingerprint differences) {}

  /**
   * The unexpected differences of {@code hour}, or of {@code key} in it, that an acknowledgement would accept
   * now ({@link Fingerprint#NONE} when there are none); refused, naming the field, when the hour or key is not
   * one of the repair's to acknowledge.
   */
  public Subject subject(HourPartition hour, List<String> key) {
    String target = TableNames.target(spec);
    Repair repair = repairs.open().orElseThrow(() -> new StepRefusedException("acknowledge", "No repair of " + target
        + " is under way; an acknowledgement belongs to one."));
    Repair settled = repairs.settled().filter(r -> r.boundary().isPresent() && r.firstHour().isPresent())
        .orElseThrow(() -> new StepRefusedException("acknowledge", "Repair " + repair.id() + " has no backfilled "
            + "history yet, so there is no difference to acknowledge; backfill and reconcile first."));
    HourRange window = new Reconciler(on).window(settled, Reconciliation.Scope.REPAIR,
        Optional.empty());
    if (hour.isBefore(window.from())) {
      throw new InvalidInputException("hour", "The hour " + hour + " is before the repair's first hour "
          + window.from() + ": the repair did not write it, so no difference there is the repair's to accept. Give an "
          + "hour of the repair window " + window + ".");
    }
    if (!hour.isBefore(window.to())) {
      throw new InvalidInputException("hour", "The hour " + hour + " is not written by both versions yet: the repair "
          + "window " + window + " ends at the newest hour v1 and v2 have both closed. An acknowledgement accepts "
          + "differences someone has seen, so acknowledge it once both versions have written it and a reconciliation "
          + "shows it.");
    }
    List<String> normalized = key.isEmpty() ? List.of() : keyValues(key);
    Differ differ = new Differ(sql, spec);
    return new Subject(settled, hour, normalized, differ.fingerprint(spec.liveTable(), spec.targetTable(), hour,
        normalized));
  }

  /**
   * Records the acknowledgement of {@code hour} (and {@code key}) with the fingerprint of its unexpected
   * differences now. When {@code seen} is given (what the operator was shown), differences that changed
   * since are refused, naming both: nothing is accepted that nobody saw.
   */
  public Fingerprint acknowledge(HourPartition hour, List<String> key, Optional<Fingerprint> seen, String reason) {
    Subject now = subject(hour, key);
    if (now.differences().none()) {
      throw new InvalidInputException(now.key().isEmpty() ? "hour" : "key", (now.key().isEmpty() ? "The hour " + hour
          : "Key " + now.key() + " at " + hour) + " has no unexpected difference now: v1 and v2 agree there, or a rule "
          + "of the spec explains every difference. There is nothing to acknowledge; an acknowledgement accepts only "
          + "differences that are there to be seen.");
    }
    if (seen.isPresent() && !HeldAcknowledgements.same(seen.get(), now.differences(), new Differ(sql, spec).kinds())) {
      throw new StepRefusedException("acknowledge", "The differences of " + describe(now) + " changed since you "
          + "looked: then " + seen.get().describe() + "; now " + now.differences().describe() + ". Nothing was "
          + "acknowledged; look at them again.");
    }
    String target = TableNames.target(spec);
    reports.ensureSchema();
    reports.acknowledge(target, now.repair().id(), now.hour(), now.key(), reason, now.differences());
    state.audit(target, "acknowledge", "accepted the difference at " + describe(now) + " in repair " + now.repair().id()
        + " (" + now.differences().describe() + "): " + reason);
    return now.differences();
  }

  /**
   * Takes back the acknowledgement of {@code hour} (and {@code key}) in force, with a reason: it accepts
   * nothing from now on, and the next verdict counts those keys as unexpected again.
   */
  public Acknowledgement withdraw(HourPartition hour, List<String> key, String reason) {
    String target = TableNames.target(spec);
    Repair repair = repairs.open().orElseThrow(() -> new StepRefusedException("withdraw", "No repair of " + target
        + " is under way; there is no acknowledgement to withdraw."));
    List<String> normalized = key.isEmpty() ? List.of() : keyValues(key);
    List<Acknowledgement> inForce = reports.acknowledgements(target, repair.id());
    Acknowledgement found = inForce.stream().filter(a -> a.hour().equals(hour) && a.key().equals(normalized))
        .reduce((a, b) -> b).orElseThrow(() -> new InvalidInputException(normalized.isEmpty() ? "hour" : "key",
            "Repair " + repair.id() + " has no acknowledgement of " + hour + (normalized.isEmpty() ? " (whole hour)"
                : " key " + normalized) + " to withdraw. " + (inForce.isEmpty() ? "It has none in force."
                : "Those in force: " + String.join("; ", inForce.stream().map(Acknowledgement::subject).toList())
                    + ".")));
    reports.withdraw(target, repair.id(), hour, normalized, reason);
    state.audit(target, "withdraw acknowledgement", "took back the acknowledgement of " + found.subject() + " in repair "
        + repair.id() + " (made by " + found.by() + ": " + found.reason() + "): " + reason);
    return found;
  }

  /**
   * The key's values as the comparison prints them ({@code toString} of the value in its column's type), each
   * checked against v1's column: a value that does not parse as its type is refused naming the column.
   */
  List<String> keyValues(List<String> key) {
    if (key.size() != spec.keys().size()) {
      throw new InvalidInputException("key", "The key was given " + key.size() + " value(s), but the spec's key has "
          + spec.keys().size() + " columns " + spec.keys() + "; give one value per column, in order.");
    }
    Map<String, String> types = new LinkedHashMap<>();
    sql.query("read the key types of " + spec.liveTable(), "SELECT name, type FROM system.columns WHERE database = ? "
        + "AND table = ?", rs -> types.put(rs.getString(1), rs.getString(2)), spec.database().name(),
        spec.liveTable().name());
    List<String> out = new ArrayList<>();
    for (int i = 0; i < key.size(); i++) {
      Identifier column = spec.keys().get(i);
      String type = types.getOrDefault(column.name(), "String");
      String bare = type.replaceAll("^(LowCardinality|Nullable)\\((.*)\\)$", "$2")
          .replaceAll("^(LowCardinality|Nullable)\\((.*)\\)$", "$2");
      String value = key.get(i);
      Optional<String> parsed = sql.query("check the key value for " + column, "SELECT toString(accurateCastOrNull(?, ?))",
          rs -> Optional.ofNullable(rs.getString(1)), value, bare).getFirst();
      if (parsed.isEmpty() || value.isBlank() && !bare.equals("String")) {
        throw new InvalidInputException("key", "The key value '" + abbreviate(value) + "' for " + column + " is not a "
            + bare + " (the type of " + spec.liveTable() + "." + column + "); give the key's values as the "
            + "reconciliation lists them.");
      }
      out.add(parsed.get());
    }
    return out;
  }

  private static String describe(Subject s) {
    return s.hour() + (s.key().isEmpty() ? " (whole hour)" : " key " + s.key());
  }

  private static String abbreviate(String text) {
    String one = text.replaceAll("\\s+", " ");
    return one.length() > 60 ? one.substring(0, 57) + "..." : one;
  }
}
