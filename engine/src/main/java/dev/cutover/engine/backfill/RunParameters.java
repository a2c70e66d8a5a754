package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's throttle as its record keeps it, so that a resumed run goes on as it was started unless
 * the operator says otherwise.
 */
public final class RunParameters {

  private static final JsonMapper JSON = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

  record Stored(int concurrency, int batchHours, int maxThreads, int priority, long maxMemoryUsage,
      long rowsPerSecond, long maxLiveLagMinutes, int maxAttempts, long retryBackoffMs, long serverWaitSeconds,
      Long affectedFrom, Long affectedTo, int nice, int restPercent) {}

  private RunParameters() {}

  public static String encode(BackfillSettings s) {
    return encode(s, Optional.empty());
  }

  /** The throttle and, for a bounded repair, the affected hours: a resumed run carries and computes as it began. */
  public static String encode(BackfillSettings s, Optional<HourRange> affected) {
    return JSON.writeValueAsString(new Stored(s.concurrency(), s.batchHours(), s.maxThreads(), s.priority(),
        s.maxMemoryUsage(), s.rowsPerSecond(), s.maxLiveLag().toMinutes(), s.maxAttempts(), s.retryBackoff().toMillis(),
        s.serverWait().toSeconds(), affected.map(a -> a.from().epochSecond()).orElse(null),
        affected.map(a -> a.to().epochSecond()).orElse(null), s.nice(), s.restPercent()));
  }

  /** The affected hours a run was started with; empty when it recomputes every hour of its range. */
  public static Optional<HourRange> affected(String parameters) {
    try {
      var node = JSON.readTree(parameters);
      if (!node.path("affected_from").isNumber() || !node.path("affected_to").isNumber()) {
        return Optional.empty();
      }
      return Optional.of(new HourRange(HourPartition.ofEpochSecond(node.get("affected_from").asLong()),
          HourPartition.ofEpochSecond(node.get("affected_to").asLong())));
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }

  /**
   * The settings a run was started (or last resumed) with; {@code fallback} fills what an older
   * record does not hold.
   */
  public static BackfillSettings decode(String parameters, BackfillSettings fallback) {
    try {
      var node = JSON.readTree(parameters);
      return new BackfillSettings(
          node.path("concurrency").asInt(fallback.concurrency()),
          node.path("batch_hours").asInt(fallback.batchHours()),
          node.path("max_threads").asInt(fallback.maxThreads()),
          node.path("priority").asInt(fallback.priority()),
          node.path("max_memory_usage").asLong(fallback.maxMemoryUsage()),
          node.path("rows_per_second").asLong(fallback.rowsPerSecond()),
          node.has("max_live_lag_minutes") ? Duration.ofMinutes(node.get("max_live_lag_minutes").asLong())
              : fallback.maxLiveLag(),
          node.path("max_attempts").asInt(fallback.maxAttempts()),
          node.has("retry_backoff_ms") ? Duration.ofMillis(node.get("retry_backoff_ms").asLong())
              : fallback.retryBackoff(),
          node.has("server_wait_seconds") ? Duration.ofSeconds(node.get("server_wait_seconds").asLong())
              : fallback.serverWait(),
          node.path("nice").asInt(fallback.nice()),
          node.path("rest_percent").asInt(fallback.restPercent()));
    } catch (JacksonException e) {
      return fallback;
    }
  }
}
