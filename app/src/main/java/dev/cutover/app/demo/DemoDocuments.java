package dev.cutover.app.demo;

import static dev.cutover.app.output.Shapes.seconds;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** The JSON documents of the demo commands (docs/JSON.md). */
final class DemoDocuments {

  private DemoDocuments() {}

  /** {@code demo seed} and {@code demo reset}: what the world holds, and whether this call built it. */
  record SeedDocument(String command, String world, boolean created, String live, long seed, double scale,
      int historyDays, Instant historyStart, Instant liveStart, long trades, long v1Rows, long v1Hours, Instant incidentHour,
      BigDecimal tookSeconds) {

    static SeedDocument of(String command, DemoWorld world, SeedResult r) {
      DemoState s = r.state();
      return new SeedDocument(command, world.database().name(), r.created(), s.viewFed() ? "mv" : "job", s.seed(),
          s.scale(), s.historyDays(),
          s.historyStart(), s.liveStart(), r.trades(), r.v1Rows(), r.v1Hours(), s.incidentHour().orElse(null),
          seconds(r.elapsed()));
    }
  }

  /** {@code demo status}; everything but {@code world} and {@code seeded} is null for a world not seeded. */
  record StatusDocument(String command, String world, boolean seeded, Long seed, Double scale, Integer historyDays,
      Instant historyStart, Volumes volumes, LiveJob liveJob, Edges edges, Instant v2From, Instant incidentHour) {

    static StatusDocument of(DemoStatus status) {
      String world = status.world().database().name();
      if (status.state().isEmpty()) {
        return new StatusDocument("demo status", world, false, null, null, null, null, null, null, null, null, null);
      }
      DemoState s = status.state().get();
      DemoStatus.Volumes v = status.volumes();
      LiveEdges e = status.edges().orElseThrow();
      return new StatusDocument("demo status", world, true, s.seed(), s.scale(), s.historyDays(), s.historyStart(),
          new Volumes(v.trades(), v.marks(), v.fxRates(), v.v1Rows(), v.v1Hours(), v.v2Rows(), v.v2Hours(),
              v.alerts()),
          new LiveJob(status.writerActive(), status.writerActive() ? s.writer() : null, s.clock(), s.watermark()),
          new Edges(e.newestEvent().orElse(null), e.v1End().orElse(null), seconds(e.v1Lag()), e.v2End().orElse(null),
              seconds(e.v2Lag())),
          s.v2From().orElse(null), s.incidentHour().orElse(null));
    }
  }

  record Volumes(long trades, long marks, long fxRates, long v1Rows, long v1Hours, long v2Rows, long v2Hours,
      long alerts) {}

  /** The live job: whether one runs now, its simulated clock, and the watermark before which every hour closed. */
  record LiveJob(boolean running, String id, Instant clock, Instant watermark) {}

  /** The edges read from the data: the newest trade, and the end of the newest hour of each version with its lag. */
  record Edges(Instant newestTrade, Instant v1End, BigDecimal v1LagSeconds, Instant v2End, BigDecimal v2LagSeconds) {}

  /** {@code demo deploy-v2}. */
  record DeployDocument(String command, Instant boundary, boolean newlyDeployed, Instant watermark,
      long hoursToCatchUp, boolean liveJobRunning) {}

  /** {@code demo export-spec}: the folder and the files written into it. */
  record ExportDocument(String command, String folder, String spec, List<String> files) {}

  /**
   * {@code demo live --json}: one document per line, an event each: {@code started}, one {@code step}
   * per ten simulated minutes, {@code stopped}.
   */
  record LiveEvent(String command, String event, String job, String world, Instant clock, Instant watermark,
      Instant from, BigDecimal simulatedHourSeconds, List<Written> written) {

    static LiveEvent started(String job, DemoWorld world, DemoState state, java.time.Duration hour) {
      return new LiveEvent("demo live", "started", job, world.database().name(), state.clock(), state.watermark(),
          null, seconds(hour), List.of());
    }

    static LiveEvent step(String job, DemoWorld world, LiveStep step) {
      return new LiveEvent("demo live", "step", job, world.database().name(), step.to(), step.watermark(),
          step.from(), null, step.written().stream().map(w -> new Written(w.hour(), w.version().label(), w.writer(),
              w.mode().sqlName(), w.rows())).toList());
    }

    static LiveEvent stopped(String job, DemoWorld world, DemoState state) {
      return new LiveEvent("demo live", "stopped", job, world.database().name(), state.clock(), state.watermark(),
          null, null, List.of());
    }
  }

  /** One hour written in a step: to which version ({@code v1}, {@code v2}), by whom, how, and its rows now. */
  record Written(Instant hour, String version, String writer, String mode, long rows) {}
}
