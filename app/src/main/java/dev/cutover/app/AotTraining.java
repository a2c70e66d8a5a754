package dev.cutover.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.jar.JarFile;
import picocli.CommandLine;

/**
 * The workload that trains the runtime image's AOT cache: the command line with every command's help, and every
 * class of Cutover's own jars loaded (which loads the JavaFX, JDBC and picocli classes they build on), none run.
 * The image's launcher runs it once per image in a process of its own whose output goes nowhere, because the
 * JVM reports the cache it writes on stdout; the operator's commands then start from the cache and print only
 * their own output.
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
