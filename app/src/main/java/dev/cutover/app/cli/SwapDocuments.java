package dev.cutover.app.cli;

import static dev.cutover.app.output.Shapes.name;
import static dev.cutover.app.output.Shapes.seconds;

import dev.cutover.app.output.Shapes.Window;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.V1Reader;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** The JSON documents of cutover, rollback, retention, abandon, ack, cleanup and check (docs/JSON.md). */
final class SwapDocuments {

  private SwapDocuments() {}

  /**
   * {@code cutover --arm} and {@code --disarm}: what became of the arm ({@code armed}, {@code disarmed},
   * {@code expired}, {@code not_armed}), with the arm itself when there was one.
   */
  record ArmDocument(String command, String arm, Arm armed, String sentence) {}

  /** An armed cutover: its target, who armed it, and its window. */
  record Arm(String target, String by, Instant at, Instant until) {
    static Arm of(dev.cutover.engine.api.Armed a) {
      return new Arm(a.target(), a.by(), a.at(), a.until());
    }
  }

  /** {@code cutover --check} and {@code rollback --check}: the gate, judged from the data now. */
  record GateDocument(String command, boolean check, String step, boolean open, String current, Window judged,
      String statement, List<Condition> conditions) {

    static GateDocument of(String command, Gate g, String statement) {
      return new GateDocument(command, true, g.step(), g.open(), name(g.current()), Window.of(g.judged()), statement,
          g.conditions().stream().map(c -> new Condition(c.name(), c.met(), c.detail())).toList());
    }
  }

  record Condition(String name, boolean met, String detail) {}

  /** A cutover or rollback that ran: the statement, the versions before and after, and its verification. */
  record SwapDocument(String command, boolean check, String action, String statement, String before, String after,
      Instant at, BigDecimal tookSeconds, boolean verified, Window verifiedWindow, String verification) {

    static SwapDocument of(String command, SwapResult r) {
      return new SwapDocument(command, false, r.action(), r.statement(), name(r.before()), name(r.after()), r.at(),
          seconds(r.took()), r.verified(), Window.of(r.verifiedWindow()), r.verification());
    }
  }

  record RetentionDocument(String command, BigDecimal keepSeconds, BigDecimal longestCacheSeconds,
      String longestCacheConsumer, BigDecimal reconciliationWindowSeconds, BigDecimal marginSeconds, Instant cutoverAt,
      Instant keepUntil, Instant droppedAt, List<Reader> v1Readers, List<String> dropped) {

    static RetentionDocument of(Retention r, List<V1Reader> readers, List<String> dropped) {
      return new RetentionDocument("retention", seconds(r.total()), seconds(r.longestCache()),
          r.longestCacheConsumer(), seconds(r.reconciliationWindow()), seconds(r.margin()), r.cutoverAt().orElse(null),
          r.keepUntil().orElse(null), r.droppedAt().orElse(null),
          readers.stream().map(v -> new Reader(v.name(), v.kind())).toList(), dropped);
    }
  }

  record Reader(String name, String kind) {}

  record AbandonDocument(String command, String repair, String target, Instant boundary, String reason) {}

  record CleanupDocument(String command, List<String> dropped) {}

  /** {@code check}: the server connected to, and where. */
  record CheckDocument(String command, boolean ok, String version, String address, boolean embedded, String dataDir,
      String database, String user, boolean tls, String description) {}
}
