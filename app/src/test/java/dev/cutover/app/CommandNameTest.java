package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The name a command line gives its process, which the embedded server's log shows for every client: the
 * command the parser found, wherever the connection options stand and whatever their values look like. It once
 * called every command run as {@code cutover --data-dir D backfill} "cutover console".
 */
class CommandNameTest {

  @TempDir Path dir;

  private String named(String... args) {
    List<String> heard = new ArrayList<>();
    PrintStream out = System.out;
    PrintStream err = System.err;
    System.setOut(new PrintStream(new ByteArrayOutputStream()));
    System.setErr(new PrintStream(new ByteArrayOutputStream()));
    try {
      Main.run(heard::add, args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    assertEquals(1, heard.size(), List.of(args) + " named " + heard);
    return heard.getFirst();
  }

  @Test
  void theCommandIsNamedWhereverTheOptionsStand() {
    String data = dir.resolve("none").toString();
    assertEquals("cutover server status", named("--data-dir", data, "server", "status"));
    assertEquals("cutover server status", named("server", "status", "--data-dir", data));
    assertEquals("cutover server status", named("--verbose", "--data-dir", data, "server", "status", "--json"));
    assertEquals("cutover demo status", named("--data-dir", data, "demo", "status", "--help"));
    // A value named like a command is a value: the profile "check" does not make this a check.
    assertEquals("cutover server status", named("--profile", "check", "server", "status", "--help"));
    assertEquals("cutover console", named("--version"));
  }
}
