package dev.cutover.app.demo;

/** Progress of seeding: which phase, and how far through it (in hours of history, or steps). */
@FunctionalInterface
public interface SeedProgress {

  SeedProgress NONE = (phase, done, total) -> { };

  /**
   * Called after each batch. {@code done} grows to {@code total} within a phase.
   *
   * <pre>{@code
   * seeder.seed(options, (phase, done, total) -> System.out.printf("%s %d/%d%n", phase, done, total));
   * }</pre>
   */
  void report(String phase, long done, long total);
}
