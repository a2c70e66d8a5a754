package dev.cutover.app;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;

/** What one run of the command line, in this JVM, returned and printed. */
record CommandRun(int exit, String out, String err) {

  /** Runs {@code cutover args…} through {@link Main#run}, capturing standard output and error. */
  static CommandRun of(List<String> args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true));
    System.setErr(new PrintStream(err, true));
    try {
      return new CommandRun(Main.run(args.toArray(String[]::new)), out.toString(), err.toString());
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }
}
