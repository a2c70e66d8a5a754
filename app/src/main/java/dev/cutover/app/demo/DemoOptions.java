package dev.cutover.app.demo;

import picocli.CommandLine.Option;

/** Which demo world a demo command works on. */
public final class DemoOptions {

  @Option(names = "--demo-database", paramLabel = "NAME", defaultValue = DemoWorld.DEFAULT_DATABASE,
      description = "Atomic database that holds the demo world (default: ${DEFAULT-VALUE}).")
  String database;

  public DemoWorld world() {
    return DemoWorld.in(database);
  }
}
