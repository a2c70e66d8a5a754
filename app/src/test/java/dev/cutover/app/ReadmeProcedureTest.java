package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cutover.engine.embedded.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's command-line procedure, read from README.md as written and run line by line, each command in a
 * process of its own as a shell would, against a fresh embedded engine in a temporary data directory. A command
 * that does not exist, or an exit code other than the README's (6 where its comment says "exit 6", else 0),
 * fails the test. The normal build seeds two days of history ({@code --history-days 2} added to the seed line);
 * {@code -Dcutover.readme.full=true} (the Maven profile {@code readme-full}) runs the block exactly as printed.
 */
class ReadmeProcedureTest {

  private static final Pattern UNTIL = Pattern.compile("until (.+); do sleep (\\d+); done");
  private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\((\\./cutover [^)]*)\\)");
  private static final long GATE_WAIT_MINUTES = 10;

  @TempDir Path home;
  private final Map<String, String> env = new HashMap<>();
  /** The jobs started with &, each with the file its output goes to. */
  private final List<Job> background = new ArrayList<>();
  private final StringBuilder transcript = new StringBuilder();

  @Test
  void theReadmeProcedureReachesAVerifiedCutoverAndRollback() throws Exception {
    runBlock(procedure(Files.readString(readme())), true);
  }

  @Test
  void theReadmeProcedureForAMaterializedViewReachesAVerifiedCutoverAndRollback() throws Exception {
    runBlock(procedure(Files.readString(readme()), "### When the live writer is a materialized view"), false);
  }

  @Test
  void theReadmeProcedureOnAShardedClusterReachesAVerifiedCutoverOnEveryNode() throws Exception {
    runBlock(procedure(Files.readString(readme()), "### On a sharded cluster"), false);
  }

  private void runBlock(List<String> block, boolean exportsReport) throws Exception {
    boolean full = Boolean.getBoolean("cutover.readme.full");
    assertTrue(block.stream().anyMatch(l -> l.matches("\\./cutover (--shards \\d+ )?(cluster )?cutover .*--confirm.*")),
        "the README's procedure has a cutover: " + block);
    env.put("XDG_DATA_HOME", home.resolve("data").toString());
    env.put("XDG_CONFIG_HOME", home.resolve("config").toString());
    env.put("XDG_STATE_HOME", home.resolve("state").toString());
    for (String variable : List.of("CUTOVER_JDBC_URL", "CUTOVER_USER", "CUTOVER_DATABASE", "CUTOVER_PROFILE",
        "CUTOVER_SPEC", "CUTOVER_PASSWORD")) {
      env.put(variable, null);
    }
    Path work = Files.createDirectories(home.resolve("work"));
    try {
      for (String line : block) {
        String command = withoutComment(line);
        int expected = comment(line).contains("exit 6") ? 6 : 0;
        if (!full && command.matches("\\./cutover (--shards \\d+ )?demo (seed|reset)\\b.*")) {
          command += " --history-days 2";
        }
        run(work, command, expected);
      }
      assertTrue(!exportsReport || Files.size(work.resolve("report.html")) > 0, "the HTML report was written");
      assertTrue(background.isEmpty(), "the README stops the live job it starts");
      System.out.println("The README's procedure, as run:" + transcript); // kept in the test's report
    } finally {
      background.forEach(job -> job.process().destroy());
      EmbeddedServer.stopRunning(home.resolve("data/cutover/embedded"), "the test is done");
      for (int i = 1; i <= dev.cutover.engine.Session.MAX_LOCAL_SHARDS; i++) {
        Path node = dev.cutover.engine.Session.localClusterNode(home.resolve("data/cutover/embedded/cluster"), i);
        if (Files.isDirectory(node)) {
          EmbeddedServer.stopRunning(node, "the test is done");
        }
      }
    }
  }

  private void run(Path work, String command, int expected) throws Exception {
    Matcher until = UNTIL.matcher(command);
    if (until.matches()) {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(GATE_WAIT_MINUTES);
      ChildRun last;
      do {
        last = cutover(work, until.group(1));
        assertTrue(last.exit() == 0 || last.exit() == 6, "until " + until.group(1) + " waits on exit 6 only: "
            + last.exit() + " " + last.out() + last.err() + transcript);
        if (last.exit() != 0) {
          assertTrue(last.out().contains("more hour(s) are needed") || !last.out().contains("[ ] overlap"),
              "a closed gate says how many overlap hours are still needed: " + last.out());
          Thread.sleep(Long.parseLong(until.group(2)) * 1000);
        }
      } while (last.exit() != 0 && System.nanoTime() < deadline);
      assertEquals(0, last.exit(), "the gate did not open within " + GATE_WAIT_MINUTES + " minutes: " + last.out()
          + backgroundJobs() + transcript);
      return;
    }
    if (command.equals("kill %1")) {
      assertEquals(1, background.size(), "kill %1 stops the one job started in the background");
      Process job = background.removeFirst().process();
      job.destroy();
      assertTrue(job.waitFor(60, TimeUnit.SECONDS), "the live job stops on SIGTERM");
      return;
    }
    if (command.endsWith("&")) {
      String[] parts = command.substring(0, command.length() - 1).strip().split(" > ");
      Path log = work.resolve(parts.length > 1 ? parts[1].strip() : "background.log");
      background.add(new Job(ChildRun.start(work, env, arguments(work, parts[0]), log), log));
      return;
    }
    ChildRun outcome = cutover(work, command);
    assertEquals(expected, outcome.exit(), "README: " + command + "\n" + outcome.out() + outcome.err() + transcript);
    if (command.startsWith("./cutover backfill") && expected == 6) {
      assertTrue(outcome.err().contains("add --acknowledge trading.pnl_alerts_mv --reason \"…\" with why replaying "
          + "history through it is safe"), "the refusal names the options that fix it: " + outcome.err());
    }
  }

  /** What each job started with & wrote, and whether it still runs: a gate that never opens often means it stopped. */
  private String backgroundJobs() throws Exception {
    StringBuilder jobs = new StringBuilder();
    for (Job job : background) {
      List<String> lines = Files.exists(job.log()) ? Files.readAllLines(job.log()) : List.of();
      jobs.append("\n--- ").append(job.log().getFileName()).append(job.process().isAlive() ? " (still running)"
          : " (ended with exit " + job.process().exitValue() + ")").append(", its last lines:\n")
          .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
    }
    return jobs.toString();
  }

  private record Job(Process process, Path log) {}

  private ChildRun cutover(Path work, String command) throws Exception {
    long started = System.nanoTime();
    ChildRun outcome = ChildRun.of(work, env, arguments(work, command));
    transcript.append("\n$ ").append(command).append(" -> ").append(outcome.exit())
        .append(String.format(" (%.1f s)", (System.nanoTime() - started) / 1e9)).append('\n')
        .append(outcome.out()).append(outcome.err());
    return outcome;
  }

  /** The words of one command as a shell splits them: double quotes, and $(./cutover …) inside them. */
  private List<String> arguments(Path work, String command) throws Exception {
    if (!command.startsWith("./cutover")) {
      fail("The README's procedure runs '" + command + "', which is not ./cutover; this test runs only ./cutover, "
          + "'until …; do sleep N; done', a job started with & and kill %1.");
    }
    Matcher substitution = SUBSTITUTION.matcher(command);
    StringBuilder expanded = new StringBuilder();
    while (substitution.find()) {
      ChildRun inner = cutover(work, substitution.group(1));
      assertEquals(0, inner.exit(), "README: " + substitution.group(1) + "\n" + inner.out() + inner.err());
      substitution.appendReplacement(expanded, Matcher.quoteReplacement(inner.out().strip()));
    }
    substitution.appendTail(expanded);
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (char c : expanded.toString().toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (Character.isWhitespace(c) && !quoted) {
        if (any) {
          words.add(word.toString());
        }
        word.setLength(0);
        any = false;
      } else {
        assertFalse(!quoted && "'|;<>$`\\".indexOf(c) >= 0, "shell syntax this test does not run in: " + command);
        word.append(c);
        any = true;
      }
    }
    if (any) {
      words.add(word.toString());
    }
    return words.subList(1, words.size());
  }

  /** The lines of the code block under "The procedure, from the command line". */
  static List<String> procedure(String readme) {
    return procedure(readme, "## The procedure, from the command line");
  }

  /** The lines of the first code block under {@code heading}. */
  static List<String> procedure(String readme, String heading) {
    int section = readme.indexOf(heading);
    assertTrue(section >= 0, "the README has a section '" + heading + "'");
    int open = readme.indexOf("```\n", section);
    int close = readme.indexOf("```", open + 4);
    return readme.substring(open + 4, close).lines().filter(l -> !l.isBlank()).toList();
  }

  private static String withoutComment(String line) {
    int hash = commentStart(line);
    return (hash < 0 ? line : line.substring(0, hash)).strip();
  }

  private static String comment(String line) {
    int hash = commentStart(line);
    return hash < 0 ? "" : line.substring(hash);
  }

  /** A '#' after whitespace and outside double quotes starts a comment, as in a shell. */
  private static int commentStart(String line) {
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '#' && !quoted && i > 0 && Character.isWhitespace(line.charAt(i - 1))) {
        return i;
      }
    }
    return -1;
  }

  private static Path readme() {
    Path here = Path.of("").toAbsolutePath();
    Path readme = here.resolve("README.md");
    return Files.exists(readme.resolveSibling("app")) ? readme : here.getParent().resolve("README.md");
  }
}
