package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The spec, the range, the boundary and throttle overrides, shared by plan, preflight and backfill. */
public final class SpecOptions {

  @Option(names = "--spec", paramLabel = "FILE",
      description = "The spec of the table (YAML; see docs/SPEC.md), or 'demo' for the demo world's (default: "
          + "$CUTOVER_SPEC).")
  Path spec;

  /** The environment variable that names the spec when --spec is not given. */
  public static final String SPEC_VARIABLE = "CUTOVER_SPEC";

  @Option(names = "--from", paramLabel = "HOUR", description = "First hour to recompute, UTC (default: the start of the reprocessing window).")
  String from;

  @Option(names = "--to", paramLabel = "HOUR", description = "End of the range, exclusive, UTC (default: the boundary).")
  String to;

  @Option(names = "--boundary", paramLabel = "HOUR", description = "The watermark boundary B, UTC (default: live edge minus the spec's safety margin).")
  String boundary;

  @Option(names = "--affected", paramLabel = "FROM/TO", description = "Recompute only these hours, UTC, the end "
      + "exclusive (e.g. 2026-06-03/2026-06-05T12:00); the rest of the range is carried from v1 unchanged "
      + "(default: the spec's affected window, else every hour).")
  String affected;

  @Option(names = "--concurrency", paramLabel = "N", description = "Batches at once (default: the spec's throttle).")
  Integer concurrency;

  @Option(names = "--batch-hours", paramLabel = "N", description = "Hours per batch (default: the spec's throttle).")
  Integer batchHours;

  @Option(names = "--rows-per-second", paramLabel = "N", description = "Ceiling on rows written per second; 0 for none.")
  Long rowsPerSecond;

  @Option(names = "--max-live-lag", paramLabel = "MINUTES", description = "Wait while the live writer lags more than this; 0 disables.")
  Long maxLiveLag;

  @Option(names = "--nice", paramLabel = "0-19", description = "The Linux nice value of the server threads that run "
      + "the backfill's statements: the higher, the more it yields the CPU to the live job (default: the spec's "
      + "throttle, else 0, the server's own).")
  Integer nice;

  @Option(names = "--rest-percent", paramLabel = "0-1000", description = "After each batch, keep its place "
      + "for this share of the batch's own length before the next starts: 100 rests as long as each batch took, "
      + "so the backfill computes at most half the time (default: the spec's throttle, else 0).")
  Integer restPercent;

  @Option(names = "--server-wait", paramLabel = "MINUTES", description = "Stop the run when the server has not "
      + "answered for this long (default: 10); the run waits once for it, not per batch.")
  Long serverWait;

  /** The spec, whether it names a cluster or not. */
  public TableSpec loadAny(dev.cutover.engine.Session session, Engine engine) {
    spec = path(spec);
    if (spec.toString().equals(DEMO) && !Files.exists(spec) && session.localCluster().isPresent()) {
      return engine.specs().load(demoClusterSpec(dev.cutover.app.spec.DemoSpec.viewFed(session.statements(),
          dev.cutover.app.spec.DemoSpec.DEFAULT_DATABASE)));
    }
    if (spec.toString().equals(DEMO) && !Files.exists(spec)) {
      return engine.specs().load(demoSpec(dev.cutover.app.spec.DemoSpec.viewFed(session.statements(),
          dev.cutover.app.spec.DemoSpec.DEFAULT_DATABASE)));
    }
    if (Files.notExists(spec)) {
      throw new InvalidInputException("spec", "The spec file " + spec + " does not exist; give the path of a spec "
          + "with --spec (see docs/SPEC.md).");
    }
    // A directory, a pipe or a device is refused by the engine, without opening it, in a sentence that says which.
    return engine.specs().load(spec);
  }

  /** The spec --spec names, else the one $CUTOVER_SPEC names; refused when neither does. */
  static Path path(Path given) {
    if (given != null) {
      return given;
    }
    String variable = System.getenv(SPEC_VARIABLE);
    if (variable == null || variable.isBlank()) {
      throw new InvalidInputException("spec", "No spec was given; pass --spec FILE (or --spec demo for the demo "
          + "world), or set " + SPEC_VARIABLE + " to its path.");
    }
    return Path.of(variable.strip());
  }

  /** {@code --spec demo}: the demo world's spec, written out where operators can read it. */
  public static final String DEMO = "demo";

  public static Path demoSpec() {
    return demoSpec(false);
  }

  /** {@code --spec demo} on the embedded local cluster: the demo world sharded by book, written out where operators can read it. */
  public static Path demoClusterSpec() {
    return demoClusterSpec(false);
  }

  /** The same, for the world whose v1 a materialized view feeds on every shard when {@code viewFed}. */
  public static Path demoClusterSpec(boolean viewFed) {
    return dev.cutover.app.spec.DemoSpec.exportCluster(dev.cutover.engine.EmbeddedEngine.userDataFolder()
        .resolve("specs").resolve(viewFed ? "demo-cluster-mv" : "demo-cluster"), dev.cutover.app.spec.DemoSpec
        .DEFAULT_DATABASE, true, viewFed);
  }

  /** {@code --spec demo} for a world whose v1 a live job writes, or, when {@code viewFed}, a materialized view. */
  public static Path demoSpec(boolean viewFed) {
    return dev.cutover.app.spec.DemoSpec.export(dev.cutover.engine.EmbeddedEngine.userDataFolder().resolve("specs")
        .resolve("demo"), dev.cutover.app.spec.DemoSpec.DEFAULT_DATABASE, true, viewFed);
  }

  public Optional<HourPartition> from() {
    return Optional.ofNullable(from).map(t -> HourPartition.parse("range start (--from)", t));
  }

  public Optional<HourPartition> to() {
    return Optional.ofNullable(to).map(t -> HourPartition.parse("range end (--to)", t));
  }

  public Optional<HourPartition> boundary() {
    return Optional.ofNullable(boundary).map(t -> HourPartition.parse("boundary", t));
  }

  /** {@code --affected FROM/TO}: whole hours in UTC, the end exclusive, refused in a sentence otherwise. */
  public Optional<HourRange> affected() {
    if (affected == null) {
      return Optional.empty();
    }
    String[] parts = affected.split("/", -1);
    if (parts.length != 2) {
      throw new InvalidInputException("affected", "The affected window (--affected) '" + affected + "' is not two "
          + "hours joined by '/'; write it as FROM/TO in UTC, the end exclusive, such as 2026-06-03/2026-06-05T12:00.");
    }
    HourPartition from = HourPartition.parse("start of the affected window (--affected)", parts[0]);
    HourPartition to = HourPartition.parse("end of the affected window (--affected)", parts[1]);
    if (!from.isBefore(to)) {
      throw new InvalidInputException("affected", "The affected window (--affected) starts at " + from + " and ends at "
          + to + ", so it holds no hour; give a start before the end (the end is exclusive).");
    }
    return Optional.of(new HourRange(from, to));
  }

  /** {@code s} with every throttle option given on the command line applied; the rest as it was. */
  public BackfillSettings overrides(BackfillSettings s) {
    if (concurrency != null) {
      s = s.withConcurrency(concurrency);
    }
    if (batchHours != null) {
      s = s.withBatchHours(batchHours);
    }
    if (rowsPerSecond != null) {
      s = s.withRowsPerSecond(rowsPerSecond);
    }
    if (maxLiveLag != null) {
      s = s.withMaxLiveLag(Duration.ofMinutes(maxLiveLag));
    }
    if (serverWait != null) {
      s = s.withServerWait(Duration.ofMinutes(serverWait));
    }
    if (nice != null) {
      s = s.withNice(nice);
    }
    if (restPercent != null) {
      s = s.withRestPercent(restPercent);
    }
    return s;
  }
}
