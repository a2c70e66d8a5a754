package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A backfill in a process of its own, to be killed: {@code <jdbc url> <database> <spec file> start}
 * or {@code ... resume <run id>}. Prints the run id, then each written hour.
 */
public final class BackfillProbe {

  public static void main(String[] args) throws Exception {
    try (Database db = Database.open(ConnectionProfile.of(args[0], "default", PasswordSource.none(), args[1]))) {
      Sql sql = new Sql(db.dataSource());
      TableSpec spec = SpecLoader.load(Path.of(args[2]));
      BackfillSettings settings = BackfillSettings.from(spec.throttle()).withBatchHours(2)
          .withRowsPerSecond(150); // slow enough that a kill lands in the middle of the run
      StateStore store = new StateStore(sql, args[1]);
      Backfill backfill = new Backfill(sql, store);
      BackfillEvent.Listener print = e -> {
        if (e instanceof BackfillEvent.HourWritten w) {
          System.out.println("hour " + w.hour());
        }
      };
      BackfillRun run;
      if (args[3].equals("start")) {
        Plan plan = new Planner(RepairContext.of(sql, store, spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, false);
        run = backfill.start(plan, print);
      } else {
        run = backfill.start(new Planner(RepairContext.of(sql, store, spec)).resume(backfill.check(args[4], spec), settings), print);
      }
      System.out.println("run " + run.id());
      System.out.flush();
      System.out.println("end " + run.await().state());
    }
  }
}
