package dev.cutover.engine.tables;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import java.util.UUID;

/**
 * Every name Cutover gives a table or view of a spec's database, in one place: cleanup finds what a
 * crashed run left by these prefixes, so a name made anywhere else would be a table nobody drops.
 *
 * <ul>
 *   <li>{@code <v2>__stg_<run>_<slot>}: one worker's staging table of one run;
 *   <li>{@code <v2>__sample_<random>}: the scratch table of a sample, dropped when it is read;
 *   <li>{@code <consumer view>__next}: the rollback handle, the other side of the exchange.
 * </ul>
 */
public final class TableNames {

  private static final String STAGING = "__stg_";
  private static final String SAMPLE = "__sample_";
  private static final String NEXT = "__next";

  private final TableSpec spec;

  private TableNames(TableSpec spec) {
    this.spec = spec;
  }

  public static TableNames of(TableSpec spec) {
    return new TableNames(spec);
  }

  /** The target as people and Cutover's state name it: {@code database.v2}. */
  public static String target(TableSpec spec) {
    return spec.database().name() + "." + spec.targetTable().name();
  }

  /** The staging table of worker {@code slot} of run {@code runId}. */
  public Identifier staging(String runId, int slot) {
    return Identifier.simple("staging", stagingPrefix(runId) + slot);
  }

  /** What every staging table of run {@code runId} begins with. */
  public String stagingPrefix(String runId) {
    return anyStagingPrefix() + shortId(runId) + "_";
  }

  /** The staging table a plan shows in its statements, for a run that has no id yet. */
  public Identifier stagingShown() {
    return Identifier.of(spec.targetTable().name() + STAGING + "RUN_1");
  }

  /** A fresh scratch table for a sample. */
  public Identifier sample() {
    return Identifier.simple("scratch", spec.targetTable().name() + SAMPLE + UUID.randomUUID().toString()
        .substring(0, 8));
  }

  /** What every staging table of every run of this target begins with. */
  public String anyStagingPrefix() {
    return spec.targetTable().name() + STAGING;
  }

  /** What every sample's scratch table of this target begins with. */
  public String anySamplePrefix() {
    return spec.targetTable().name() + SAMPLE;
  }

  /** The rollback handle: {@code <consumer view>__next}. */
  public Identifier nextView() {
    return Identifier.simple("next view", spec.consumerView().name() + NEXT);
  }

  static String shortId(String runId) {
    String letters = runId.replaceAll("[^A-Za-z0-9]", "");
    return letters.substring(0, Math.min(12, letters.length()));
  }
}
