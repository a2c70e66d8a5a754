package dev.cutover.engine.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Optional;

/**
 * What other processes read in a server's {@code server.log}: its last lines, for a message that says
 * why a start or a stop failed, and the reason a server gave as it began to stop. (Every process
 * appends its own lines with {@link ServerLease#log}; the server writes its own through its output.)
 */
final class ServerLog {

  private ServerLog() {}

  /** The last {@code lines} lines of the log, or a word on why there are none. */
  static String tail(ServerDirectory dir, int lines) {
    try {
      if (!Files.isRegularFile(dir.log())) {
        return "(no log)";
      }
      return EngineLibrary.lastLines(Files.readString(dir.log(), StandardCharsets.ISO_8859_1), lines);
    } catch (IOException e) {
      return "(log unreadable: " + e.getMessage() + ")";
    }
  }

  /** The reason on the last {@code stopping (…)} line of server {@code pid} in the log, without the parentheses. */
  static Optional<String> stoppingReason(ServerDirectory dir, long pid) throws IOException {
    String stopping = "server " + pid + ": stopping (";
    String log = Files.isRegularFile(dir.log()) ? Files.readString(dir.log(), StandardCharsets.ISO_8859_1) : "";
    int at = log.lastIndexOf(stopping);
    if (at < 0) {
      return Optional.empty();
    }
    int end = log.indexOf('\n', at);
    String line = log.substring(at + stopping.length(), end < 0 ? log.length() : end).strip();
    return Optional.of(line.endsWith(")") ? line.substring(0, line.length() - 1) : line);
  }
}
