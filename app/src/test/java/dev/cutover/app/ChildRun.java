package dev.cutover.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One run of the command line in a child JVM, for what only a process has: its own environment variables, no
 * display, a shell's view of stdout and stderr.
 */
record ChildRun(int exit, String out, String err) {

  /**
   * Runs {@code cutover args…} with this JVM's class path ({@link ChildJvm}), in {@code work}; {@code environment} is set on top of this
   * process's, and a null value removes a variable.
   */
  static ChildRun of(Path work, Map<String, String> environment, List<String> args) throws Exception {
    Process p = start(work, environment, args, null);
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
    if (!p.waitFor(15, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("cutover " + args + " did not end within 15 minutes");
    }
    return new ChildRun(p.exitValue(), out.get(), err.get());
  }

  /** Starts {@code cutover args…} as {@link #of} does; with {@code output}, its stdout and stderr go to that file. */
  static Process start(Path work, Map<String, String> environment, List<String> args, Path output) throws Exception {
    ProcessBuilder builder = new ProcessBuilder().directory(work.toFile());
    environment.forEach((k, v) -> {
      if (v == null) {
        builder.environment().remove(k);
      } else {
        builder.environment().put(k, v);
      }
    });
    if (output != null) {
      builder.redirectErrorStream(true).redirectOutput(output.toFile());
    }
    Process p = ChildJvm.start(builder, Main.class.getName(), args);
    p.getOutputStream().close();
    return p;
  }

  private static String drain(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
