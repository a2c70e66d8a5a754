package dev.cutover.engine.cutover;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;

/**
 * One cutover or rollback in a process of its own, started on a signal so that two processes ask at
 * the same moment: {@code <jdbc url> <database> <spec file> cutover|rollback}. Prints {@code ready}
 * once connected, waits for a line on stdin, then prints {@code swapped <version> <verified>} or
 * {@code refused <sentence>}.
 */
public final class RaceProbe {

  public static void main(String[] args) throws Exception {
    try (Database db = Database.open(ConnectionProfile.of(args[0], "default", PasswordSource.none(), args[1]))) {
      Engine engine = new Engine(db);
      TableSpec spec = engine.specs().load(Path.of(args[2]));
      String view = spec.consumerView().name();
      engine.repairs().current(spec); // warm the connection pool
      System.out.println("ready");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in)).readLine();
      try {
        SwapResult s = args[3].equals("cutover") ? engine.cutovers().cutover(spec, view) : engine.cutovers().rollback(spec, view);
        System.out.println("swapped " + s.after() + " " + s.verified());
      } catch (CutoverException e) {
        System.out.println("refused " + e.getMessage());
      }
      System.out.flush();
    }
  }
}
