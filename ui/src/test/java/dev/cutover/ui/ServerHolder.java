package dev.cutover.ui;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import java.nio.file.Path;

/**
 * Another Cutover process in miniature, to be killed: starts (or joins) the embedded server on a
 * data directory, prints {@code server PID owner BOOLEAN}, and holds its session until its stdin
 * closes or it dies. {@code <data directory>}.
 */
public final class ServerHolder {

  public static void main(String[] args) throws Exception {
    try (Session session = Session.embedded(Path.of(args[0]), EngineLibrary.fromEnvironment(), ServerAccess.open(),
        EngineProgress.NONE)) {
      var server = session.embedded().orElseThrow();
      System.out.println("server " + server.pid() + " owner " + server.owner());
      System.out.flush();
      System.in.read();
    }
  }
}
