package dev.cutover.engine.cutover;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import java.nio.file.Path;

/**
 * The console's reconciliation or cutover work in a process of its own, to be killed:
 * {@code <jdbc url> <database> <spec file> reconcile|swap}. Prints {@code ready} once connected,
 * then one line per finished reconciliation or swap, for ever.
 */
public final class ConsoleProbe {

  public static void main(String[] args) throws Exception {
    try (Database db = Database.open(ConnectionProfile.of(args[0], "default", PasswordSource.none(), args[1]))) {
      Engine engine = new Engine(db);
      TableSpec spec = engine.specs().load(Path.of(args[2]));
      String view = spec.consumerView().name();
      Gate.Version current = args[3].equals("swap") ? engine.cutovers().gate(spec).current() : Gate.Version.UNKNOWN;
      System.out.println("ready");
      System.out.flush();
      while (true) {
        if (args[3].equals("reconcile")) {
          Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
          System.out.println("reconciled " + r.id() + " " + r.verdict());
        } else {
          SwapResult s = current == Gate.Version.V2 ? engine.cutovers().rollback(spec, view) : engine.cutovers().cutover(spec, view);
          current = s.after();
          System.out.println(s.action() + " " + s.after());
        }
        System.out.flush();
      }
    }
  }
}
