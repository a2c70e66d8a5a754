package dev.cutover.engine;

import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The switch of one server's consumers as {@link CutoverSteps}, the shape a cluster's ({@link ClusterCutover}) has
 * too: the gates, the statement, retention, the switch with the spec's hooks around it, and retiring v1. Its switch
 * is one statement, so nothing is ever left unfinished across nodes.
 */
final class ServerCutover implements CutoverSteps {

  private final Cutovers cutovers;
  private final Ground ground;
  private final TableSpec spec;

  ServerCutover(Cutovers cutovers, Ground ground, TableSpec spec) {
    this.cutovers = cutovers;
    this.ground = ground;
    this.spec = spec;
  }

  @Override
  public String where() {
    return "the server";
  }

  @Override
  public int nodes() {
    return 1;
  }

  @Override
  public Judged judge() {
    // The rollback gate first, because it is cheap: while consumers read v2 it is the step they can take.
    Gate rollback = cutovers.rollbackGate(spec);
    Gate shown = rollback.current() == Gate.Version.V2 ? rollback : cutovers.gate(spec);
    return opened(new Judged(shown, List.of(), Instant.now()));
  }

  @Override
  public Judged judge(Gate.Version toward) {
    return opened(new Judged(toward == Gate.Version.V2 ? cutovers.gate(spec) : cutovers.rollbackGate(spec),
        List.of(), Instant.now()));
  }

  /** {@code judged}, after the spec's gate_open hooks when it is the first opening of the repair's gate. */
  private Judged opened(Judged judged) {
    RepairHooks.gateJudged(ground, spec, judged.gate());
    return judged;
  }

  @Override
  public Armed arm(String confirmation, Duration window) {
    return cutovers.arm(spec, confirmation, window);
  }

  @Override
  public Optional<Armed> disarm(String why) {
    return cutovers.disarm(spec, why);
  }

  @Override
  public Armed.Turn armedTurn(Progress progress) {
    return cutovers.armedTurn(spec, progress);
  }

  @Override
  public String statement() {
    return cutovers.statement(spec);
  }

  @Override
  public Retention retention() {
    return cutovers.retention(spec);
  }

  @Override
  public SwapResult cutover(String confirmation, Progress progress, BiConsumer<ShardRef, SwapResult> switched) {
    return RepairHooks.switched(RepairHooks.onServer(ground, spec), spec, true, confirmation,
        () -> cutovers.gate(spec).open(), () -> cutovers.cutover(spec, confirmation, progress));
  }

  @Override
  public SwapResult rollback(String confirmation, Optional<String> reason, Progress progress,
      BiConsumer<ShardRef, SwapResult> switched) {
    return RepairHooks.switched(RepairHooks.onServer(ground, spec), spec, false, confirmation,
        () -> cutovers.rollbackGate(spec).open(), () -> cutovers.rollback(spec, confirmation, reason, progress));
  }

  @Override
  public Optional<dev.cutover.engine.api.UnfinishedSwap> finishUnfinished() {
    return Optional.empty();
  }

  @Override
  public List<V1Reader> v1Readers() {
    return cutovers.v1Readers(spec);
  }

  @Override
  public List<String> dropV1Statements() {
    return cutovers.dropV1Statements(spec);
  }

  @Override
  public List<String> dropV1(boolean force, String reason, List<String> acknowledged) {
    return cutovers.dropV1(spec, force, reason, acknowledged);
  }

  @Override
  public List<String> cleanup() {
    return cutovers.cleanup(spec);
  }
}
