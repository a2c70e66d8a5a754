package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.TableSpec;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Just the spec, for commands that take no range. */
public final class SpecFile {

  @Option(names = "--spec", paramLabel = "FILE",
      description = "The spec of the table (see docs/SPEC.md), or 'demo' for the demo world's (default: $CUTOVER_SPEC).")
  Path path;

  /** The spec, whether it names a cluster or not. */
  public TableSpec loadAny(dev.cutover.engine.Session session, Engine engine) {
    SpecOptions options = new SpecOptions();
    options.spec = path;
    return options.loadAny(session, engine);
  }

  /** The spec as the operator named it, for the commands a result suggests. */
  String shown() {
    return path == null ? "\"$" + SpecOptions.SPEC_VARIABLE + "\"" : path.toString();
  }
}
