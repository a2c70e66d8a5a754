package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EngineProgress;
import java.nio.file.Path;

/**
 * A second Cutover process in miniature: starts or joins the embedded server on a directory and
 * prints what it got. With {@code hold}, it keeps the server until its own stdin closes or it dies.
 */
public final class JoinProbe {

  public static void main(String[] args) throws Exception {
    EmbeddedServer server = EmbeddedServer.startOrJoin(Path.of(args[0]), EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    System.out.println("owner=" + server.owner() + " port=" + server.port() + " pid=" + server.pid());
    System.out.flush();
    if (args.length > 1 && args[1].equals("hold")) {
      System.in.read();
    }
    server.close();
  }
}
