package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.engine.testing.TlsServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that takes --jdbc-url, run through TLS: the embedded ClickHouse behind an HTTPS
 * front whose certificate a CA made for the test signed, trusted with {@code sslrootcert} in the
 * URL. Each command must succeed and must have opened TLS sessions; the refusals of an untrusted
 * certificate and of a wrong host name reach the operator as sentences with exit code 3.
 */
class TlsCommandsTest {

  @TempDir Path dir;

  @Test
  void everyCommandWorksThroughTlsAndRefusesWhatItMustNotTrust() throws Exception {
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(TlsCommandsTest.class), 2);
    Database demo = TestEngine.freshDatabase(TlsCommandsTest.class);
    try (TlsServers tls = TlsServers.start(dir.resolve("certificates"), TestEngine.server().port())) {
      Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      List<String> connect = List.of("--jdbc-url", tls.url(), "--database", world.database);
      List<String> withSpec = concat(connect, List.of("--spec", spec.toString()));
      String hour = world.busyHour(3).toString().replace(' ', 'T');
      int commands = 0;

      CommandRun check = through(tls, concat(List.of("check"), connect));
      assertTrue(check.out().startsWith("ok: ClickHouse ") && check.out().contains(", TLS)"), check.out());
      commands++;
      for (List<String> step : List.of(List.of("plan"), List.of("preflight"), List.of("sample", "--hour", hour),
          List.of("backfill"), List.of("status"))) {
        through(tls, concat(step, withSpec));
        commands++;
      }
      world.writeLiveV2(world.liveEdge.plusHours(-3), world.liveEdge.plusHours(1));
      // A retried append in v1, for the acknowledgement to accept before the reconciliation.
      world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
          world.busyHour(3).epochSecond());
      for (List<String> step : List.of(List.of("ack", "--hour", hour, "--reason", "seen over TLS"), List.of("reconcile"),
          List.of("cutover", "--confirm", "visits"), List.of("rollback", "--confirm", "visits"), List.of("retention"),
          List.of("cleanup"), List.of("abandon", "--confirm", "visits_v2", "--reason", "a test over TLS"))) {
        CommandRun run = through(tls, concat(step, withSpec));
        if (step.getFirst().equals("cutover")) {
          assertTrue(run.out().contains("cutover: V1 -> V2"), run.out());
        }
        commands++;
      }
      List<String> demoConnect = List.of("--jdbc-url", tls.url(), "--database", world.database, "--demo-database",
          demo.profile().database());
      for (List<String> step : List.of(
          List.of("seed", "--scale", "0.02", "--history-days", "1", "--end", "2026-11-30T09:00", "--seed", "3"),
          List.of("status"), List.of("deploy-v2", "--from", "2026-11-30T08:00"),
          List.of("live", "--steps", "1", "--speed", "100ms"), List.of("reset", "--scale", "0.02", "--history-days",
              "1", "--end", "2026-11-30T09:00", "--seed", "3"))) {
        through(tls, concat(concat(List.of("demo"), step), demoConnect));
        commands++;
      }

      // The refusals, as the operator reads them.
      CommandRun untrusted = CommandRun.of(List.of("check", "--jdbc-url", "jdbc:clickhouse:https://127.0.0.1:"
          + tls.trusted.port(), "--database", world.database));
      assertEquals(ExitCodes.CONNECTION, untrusted.exit(), untrusted.err());
      assertEquals("error: The server at 127.0.0.1:" + tls.trusted.port() + " presented a certificate that no "
          + "certificate authority trusted by this Java runtime signed, so the connection was refused; if the "
          + "server's certificate comes from your own CA, add sslrootcert=/path/to/ca.pem (that CA's certificate, "
          + "PEM) to the JDBC URL, and check that the URL names the right server.", untrusted.err().strip());
      CommandRun elsewhere = CommandRun.of(List.of("check", "--jdbc-url", "jdbc:clickhouse:https://localhost:"
          + tls.elsewhere.port() + "?sslrootcert=" + tls.caPem(), "--database", world.database));
      assertEquals(ExitCodes.CONNECTION, elsewhere.exit(), elsewhere.err());
      assertTrue(elsewhere.err().startsWith("error: The server at localhost:" + tls.elsewhere.port() + " presented a "
          + "certificate that is not made out for localhost (it names elsewhere.example)"), elsewhere.err());
      System.out.printf("[tls] %d commands through TLS (%d handshakes); an untrusted certificate and a wrong host "
          + "name refused with exit 3%n", commands, tls.trusted.handshakes());
    } finally {
      world.db.close();
      demo.close();
    }
  }

  /** Runs a command that must succeed, and checks that it opened at least one TLS session. */
  private static CommandRun through(TlsServers tls, List<String> args) {
    long before = tls.trusted.handshakes();
    CommandRun run = CommandRun.of(args);
    assertEquals(ExitCodes.OK, run.exit(), args + ": " + run.out() + run.err());
    assertTrue(tls.trusted.handshakes() > before, args + " went through TLS");
    return run;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
