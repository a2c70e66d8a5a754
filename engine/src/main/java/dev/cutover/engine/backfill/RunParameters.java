package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import java.time.Duration;
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
      long rowsPerSecond, long maxLiveLagMinutes, int maxAttempts, long retryBackoffMs, long serverWaitSeconds) {}

  private RunParameters() {}

  public static String encode(BackfillSettings s) {
    return JSON.writeValueAsString(new Stored(s.concurrency(), s.batchHours(), s.maxThreads(), s.priority(),
        s.maxMemoryUsage(), s.rowsPerSecond(), s.maxLiveLag().toMinutes(), s.maxAttempts(), s.retryBackoff().toMillis(),
        s.serverWait().toSeconds()));
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
              : fallback.serverWait());
    } catch (JacksonException e) {
      return fallback;
    }
  }
}
