package dev.cutover.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * One command of the command line in a process of its own, started on a signal so that two processes
 * run it at the same moment: prints {@code ready} on stderr once its classes are loaded, waits for a
 * line on stdin, then runs {@code cutover args…} and exits with its exit code.
 */
public final class CommandProbe {

  public static void main(String[] args) throws Exception {
    Class.forName(Main.class.getName()); // what can load before the signal does
    System.err.println("ready");
    System.err.flush();
    new BufferedReader(new InputStreamReader(System.in)).readLine();
    System.exit(Main.run(args));
  }
}
