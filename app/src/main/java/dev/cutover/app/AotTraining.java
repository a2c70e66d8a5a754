package dev.cutover.app;

import dev.cutover.app.output.JsonOutput;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Specs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.jar.JarFile;
import picocli.CommandLine;

/**
 * The workload that trains the AOT cache of the runtime image and of {@code ./cutover} in a checkout: the command
 * line with every command's help, every class of Cutover's own jars loaded (which loads the JavaFX, JDBC and picocli
 * classes they build on), and the first steps of a few commands run offline ({@link #commands}). Each launcher runs
 * it once per build in a process of its own whose output goes nowhere, because the JVM reports the cache it writes
 * on stdout; the operator's commands then start from the cache and print only their own output.
 */
public final class AotTraining {

  private AotTraining() {}

  public static void main(String[] args) throws Exception {
    PrintWriter sink = new PrintWriter(new StringWriter());
    CommandLine cli = new CommandLine(new Main());
    help(cli, sink);
    ClassLoader loader = AotTraining.class.getClassLoader();
    for (Class<?> anchor : new Class<?>[] {Main.class, dev.cutover.ui.CutoverConsole.class,
        dev.cutover.engine.Engine.class}) {
      load(jarOf(anchor), loader);
    }
    commands();
  }

  /**
   * What every command does before its own work, run against a port nothing listens on: its options parsed, the
   * demo's spec read, a document written as JSON, a connection tried through the pool, the driver and its HTTP
   * client, and the refusal said. A class only loaded is kept out of the cache (the JVM keeps the classes it has
   * linked); these run, and a command started from the cache took about two thirds of the CPU time of one without.
   * Nothing is written but a temporary copy of the demo's spec, and no server is started: every command names a URL.
   */
  private static void commands() throws IOException {
    Path folder = Files.createTempDirectory("cutover-aot-training-");
    try {
      Path spec = DemoSpec.export(folder, DemoSpec.DEFAULT_DATABASE, true);
      JsonOutput.write(Map.of("spec", spec.toString(), "table", Specs.read(spec).targetTable().toString()));
      String url = "jdbc:clickhouse:http://127.0.0.1:" + closedPort();
      for (String command : List.of("check", "status", "preflight", "reconcile")) {
        List<String> args = new ArrayList<>(List.of(command, "--jdbc-url", url, "--json"));
        if (!command.equals("check")) {
          args.addAll(List.of("--spec", spec.toString()));
        }
        Main.run(args.toArray(String[]::new));
      }
    } finally {
      try (var files = Files.walk(folder)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  /** A port of this machine nothing listens on: one the system just gave out and took back. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void help(CommandLine command, PrintWriter sink) {
    command.usage(sink);
    command.getSubcommands().values().forEach(sub -> help(sub, sink));
  }

  private static Path jarOf(Class<?> anchor) throws URISyntaxException {
    return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static void load(Path jar, ClassLoader loader) throws IOException {
    if (!jar.toString().endsWith(".jar")) {
      return; // classes folder of a development build: nothing to train for
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      for (var entries = file.entries(); entries.hasMoreElements(); ) {
        String name = entries.nextElement().getName();
        if (name.endsWith(".class") && !name.contains("module-info") && !name.startsWith("META-INF/")) {
          try {
            Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'), false, loader);
          } catch (ClassNotFoundException | LinkageError optional) {
            // a class for a library the image does not carry: not needed at start
          }
        }
      }
    }
  }
}
