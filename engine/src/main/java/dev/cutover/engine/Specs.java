package dev.cutover.engine;

import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.reconcile.Rules;
import dev.cutover.engine.spec.SpecLoader;
import java.nio.file.Path;

/** Reading a spec and having the server check its rules: the step before any plan. */
public final class Specs {

  private final Ground ground;

  Specs(Ground ground) {
    this.ground = ground;
  }

  /** Reads a spec file and checks it alone, without a server: its fields, names and rules' syntax. */
  public static TableSpec read(Path file) {
    return SpecLoader.load(file);
  }

  /**
   * Loads a spec and checks its rules with the server: each {@code where}, {@code check} and
   * {@code delta} must be one expression that calls no non-deterministic function, and, when v1
   * exists, resolve against its columns and check something (no delta that restates {@code v2 - v1},
   * no check that holds whatever the values).
   */
  public TableSpec load(Path file) {
    TableSpec spec = SpecLoader.load(file);
    checkRules(spec);
    return spec;
  }

  /** The rules of a spec parsed and compiled by the server; refuses naming the rule and field. */
  public void checkRules(TableSpec spec) {
    boolean v1 = ground.sql().queryLong("look up " + spec.liveTable(), "SELECT count() FROM system.tables "
        + "WHERE database = ? AND name = ?", spec.database().name(), spec.liveTable().name()) > 0;
    new Rules(ground.sql(), spec).compile(v1);
  }
}
