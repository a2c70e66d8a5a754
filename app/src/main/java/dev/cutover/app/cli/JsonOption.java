package dev.cutover.app.cli;

import dev.cutover.app.output.JsonOutput;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --json}: one JSON document on stdout (docs/JSON.md) instead of text for people. */
public final class JsonOption {

  @Option(names = "--json", description = "Print one JSON document instead of text (see docs/JSON.md).")
  boolean json;

  public boolean on() {
    return json;
  }

  /** The document when --json was given, else the lines. */
  public void print(PrintWriter out, Object document, Iterable<String> lines) {
    if (json) {
      out.println(JsonOutput.write(document));
    } else {
      lines.forEach(out::println);
    }
    out.flush();
  }
}
