package dev.cutover.engine.api;

/**
 * Progress of getting the embedded engine ready: fetching the library, unpacking it, starting the
 * server. {@code total} is -1 when the amount of work is not known.
 */
@FunctionalInterface
public interface EngineProgress {

  void report(String step, long done, long total);

  /** Ignores every report. */
  EngineProgress NONE = (step, done, total) -> {};
}
