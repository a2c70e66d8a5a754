package dev.cutover.engine.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

/**
 * A process's claim on the embedded server of a data directory: a file in {@code clients/} that the
 * process renews while it lives and removes when it closes. The server stops only once no lease has
 * been live for its idle period, so it outlives the process that started it for as long as any
 * Cutover process uses it. A lease whose process died is seen as gone (its process id answers no
 * more, and it is not renewed) and does not keep the server up.
 */
final class ServerLease implements AutoCloseable {

  /** How often a lease is renewed. */
  static final Duration RENEW = Duration.ofSeconds(5);
  /** A lease not renewed for this long is taken as gone, whatever its process id says. */
  static final Duration EXPIRES = Duration.ofSeconds(30);

  /** One lease as the server reads it. */
  record Holder(Path file, long pid, String what, Instant since, Instant renewed) {
    boolean live(Instant now) {
      return renewed.plus(EXPIRES).isAfter(now) && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public String toString() {
      return "process " + pid + " (" + what + ")";
    }
  }

  private final Path file;
  private final ServerDirectory dir;
  private final String what;
  private final Thread renewer;
  private volatile boolean closed;

  private final String text;
  /** Whether the lease's file is written: on a disk with no space left it is not, and each renewal tries again. */
  private volatile boolean written;

  private ServerLease(ServerDirectory dir, Path file, String what, String text) {
    this.dir = dir;
    this.file = file;
    this.what = what;
    this.text = text;
    this.written = write();
    this.renewer = Thread.ofPlatform().daemon().name("embedded-server-lease").start(this::renew);
  }

  /**
   * Writes the lease's file; false when the disk has no room for it. A command that only reads still runs on a
   * full disk: until its lease is written the server counts it by its idle period alone.
   */
  private boolean write() {
    try {
      PrivateFiles.write(file, text);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Takes a lease for this process, saying what it is ({@code cutover console}, {@code cutover backfill}, …). */
  static ServerLease take(ServerDirectory dir, String what) {
    try {
      PrivateFiles.createFolder(dir.clients());
      long pid = ProcessHandle.current().pid();
      Path file = dir.clients().resolve(pid + "-" + UUID.randomUUID().toString().substring(0, 8) + ".lease");
      Properties p = new Properties();
      p.setProperty("pid", Long.toString(pid));
      p.setProperty("what", what);
      p.setProperty("since", Instant.now().toString());
      var text = new java.io.StringWriter();
      p.store(text, "A Cutover process that uses this embedded server");
      ServerLease lease = new ServerLease(dir, file, what, text.toString());
      log(dir, "client " + pid + " (" + what + ") joined");
      return lease;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Touched by every client that lets go of its lease. */
  static Path lastLeft(ServerDirectory dir) {
    return dir.clients().resolve("last-left");
  }

  /** The leases in the data directory, live or not. */
  static java.util.List<Holder> read(ServerDirectory dir) {
    java.util.List<Holder> out = new java.util.ArrayList<>();
    if (!Files.isDirectory(dir.clients())) {
      return out;
    }
    try (var files = Files.list(dir.clients())) {
      for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".lease")).toList()) {
        read(f).ifPresent(out::add);
      }
    } catch (IOException e) {
      // a lease folder that cannot be listed keeps nobody's claim: the idle period still applies
    }
    return out;
  }

  private static Optional<Holder> read(Path f) {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(f)) {
      p.load(in);
      return Optional.of(new Holder(f, Long.parseLong(p.getProperty("pid")), p.getProperty("what", "?"),
          Instant.parse(p.getProperty("since")), Files.getLastModifiedTime(f).toInstant()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // removed meanwhile, or being written
    }
  }

  private void renew() {
    while (!closed) {
      try {
        Thread.sleep(RENEW);
        if (!closed && !written) {
          written = write();
        } else if (!closed) {
          Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        // the folder went away (the data directory was removed): nothing left to renew
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    renewer.interrupt();
    try {
      Files.deleteIfExists(file);
      // The server may not have looked while this lease lived: it still learns that a client came and went.
      PrivateFiles.overwrite(lastLeft(dir), Instant.now().toString());
      log(dir, "client " + ProcessHandle.current().pid() + " (" + what + ") left");
    } catch (IOException e) {
      // not renewed any more: it expires
    }
  }

  /** One line in the server's log, as every client writes it: appended whole. */
  static void log(ServerDirectory dir, String line) {
    try {
      PrivateFiles.appendLine(dir.log(), Instant.now() + " " + line);
    } catch (IOException e) {
      // the log is for people; the lease is what counts
    }
  }
}
