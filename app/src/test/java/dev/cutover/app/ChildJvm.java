package dev.cutover.app;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;

/**
 * How the tests start the command line in a JVM of its own: this JVM's class path with each folder of classes made a
 * jar, and an ahead-of-time cache of the classes the commands load (JEP 483), as a user's launcher keeps one. A child
 * that starts from the cache loads and links none of the classes in it again: on two cores a {@code status} took 1.2 s
 * of CPU with it against 2.1 s without. The cache only holds classes from jars, hence the jars.
 *
 * <p>The first child of a test JVM records what it loads; once it has ended the cache is made from that record, and
 * every child after it starts from the cache. Children started in between, and every child if anything of this fails,
 * start as before without a cache: the cache changes how fast a command starts, never what it does.
 */
final class ChildJvm {

  private static final Path HOME = Path.of("target", "child-jvm", Long.toString(ProcessHandle.current().pid()))
      .toAbsolutePath();
  private static final Path CONFIGURATION = HOME.resolve("commands.aotconf");
  private static final Path CACHE = HOME.resolve("commands.aot");

  /**
   * The options every child JVM gets, the cache's making included: the JIT's first tier alone suits a command that lives
   * seconds. No {@code -Xshare}: the JVM refuses it beside the cache's options (the JDK's own classes are in the cache).
   */
  private static final List<String> OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1");

  private enum Stage { NONE, RECORDING, READY, OFF }

  private static Stage stage = Stage.NONE;
  private static String classPath;

  private ChildJvm() {}

  /** Starts {@code builder} as {@code java -cp … main args…}, from the cache once it is ready. */
  static Process start(ProcessBuilder builder, String main, List<String> args) throws IOException {
    // This child records if none is recording, starts from the cache if it is ready, else starts as before.
    Stage now;
    synchronized (ChildJvm.class) {
      now = switch (stage) {
        case NONE -> Stage.RECORDING;
        case READY -> Stage.READY;
        default -> Stage.OFF;
      };
      stage = stage == Stage.NONE ? Stage.RECORDING : stage;
    }
    List<String> command = new ArrayList<>(List.of(java()));
    command.addAll(OPTIONS);
    switch (now) {
      // The JVM says on stdout that it recorded, and warns of each class it cannot keep: neither is the command's output.
      case RECORDING -> command.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-DisplayVMOutput", "-Xlog:aot=off",
          "-XX:AOTMode=record", "-XX:AOTConfiguration=" + CONFIGURATION));
      case READY -> command.add("-XX:AOTCache=" + CACHE);
      default -> { }
    }
    command.addAll(List.of("-cp", classPath(), main));
    command.addAll(args);
    Process p;
    try {
      p = builder.command(command).start();
    } catch (IOException | RuntimeException e) {
      if (now == Stage.RECORDING) {
        synchronized (ChildJvm.class) {
          stage = Stage.NONE;
        }
      }
      throw e;
    }
    if (now == Stage.RECORDING) {
      p.onExit().thenRun(ChildJvm::makeCache);
    }
    return p;
  }

  /** This JVM's class path, each folder replaced by a jar of it; as it is if a jar cannot be made. */
  private static synchronized String classPath() {
    if (classPath == null) {
      String original = System.getProperty("java.class.path");
      try {
        Files.createDirectories(HOME);
        List<String> entries = new ArrayList<>();
        int folders = 0;
        for (String entry : original.split(File.pathSeparator)) {
          Path path = Path.of(entry);
          if (Files.isDirectory(path)) {
            Path jar = HOME.resolve("classes-" + folders++ + ".jar");
            run(ToolProvider.findFirst("jar").orElseThrow(), "--create", "--file", jar.toString(), "-C", entry, ".");
            entries.add(jar.toString());
          } else {
            entries.add(entry);
          }
        }
        classPath = String.join(File.pathSeparator, entries);
      } catch (IOException | RuntimeException e) {
        System.out.println("[child-jvm] children start from the class path as it is: " + e);
        stop();
        classPath = original;
      }
    }
    return classPath;
  }

  /** Makes the cache from the recording child's record once it has ended; turns the cache off if that fails. */
  private static void makeCache() {
    try {
      if (!Files.exists(CONFIGURATION)) {
        // A child killed before its end writes no record: the next child records instead.
        synchronized (ChildJvm.class) {
          stage = stage == Stage.RECORDING ? Stage.NONE : stage;
        }
        return;
      }
      List<String> command = new ArrayList<>(List.of(java()));
      command.addAll(OPTIONS);
      command.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + CONFIGURATION, "-XX:AOTCache=" + CACHE,
          "-cp", classPath()));
      Process create = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(HOME.resolve("create.log").toFile()).start();
      long began = System.nanoTime();
      boolean ended = create.waitFor(5, TimeUnit.MINUTES);
      if (!ended || create.exitValue() != 0 || !Files.exists(CACHE)) {
        create.destroyForcibly();
        throw new IOException("the cache was not made (" + (ended ? "exit " + create.exitValue() : "still making it")
            + " after " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began) + " s); see "
            + HOME.resolve("create.log"));
      }
      synchronized (ChildJvm.class) {
        stage = stage == Stage.RECORDING ? Stage.READY : stage;
      }
    } catch (IOException | RuntimeException e) {
      System.out.println("[child-jvm] children start without a cache: " + e.getMessage());
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
    }
  }

  private static synchronized void stop() {
    stage = Stage.OFF;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static void run(ToolProvider tool, String... args) {
    StringWriter out = new StringWriter();
    int exit = tool.run(new PrintWriter(out), new PrintWriter(out), args);
    if (exit != 0) {
      throw new IllegalStateException(tool.name() + " " + String.join(" ", args) + " exited " + exit + ": " + out);
    }
  }
}
