package dev.cutover.engine.embedded;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.PasswordSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The embedded ClickHouse: a real ClickHouse 26.7 engine running in a JVM of its own and serving HTTP
 * on 127.0.0.1, with its data in a directory that persists across launches.
 *
 * <p>At most one server runs on a data directory. {@link #startOrJoin} starts one, or joins the one
 * another Cutover process already runs there, and takes a lease on it for this process. The server
 * is detached from whoever started it: it serves for as long as any Cutover process holds a lease,
 * and stops by itself once none has for its idle period ({@link #IDLE}, or {@code
 * CUTOVER_SERVER_IDLE}). Closing an instance lets go of the lease; killing the process that started
 * the server leaves it serving the others. {@link #stop} stops it now, gracefully.
 *
 * <p>This class is the handle a process holds, and the door to the rest of the package: {@code
 * ServerLaunch} decides whether to join or start, {@code ServerSpawn} launches the server's process,
 * {@code RunningServer} finds and awaits the one that holds a directory, {@code ServerLease} is this
 * process's claim on it, {@code ServerStop} stops it and says why it stopped, {@code ServerStatus}
 * describes what runs for {@code cutover server}, and {@code IdlePeriod} is how long it outlives its
 * last client.
 *
 * <pre>{@code
 * try (EmbeddedServer server = EmbeddedServer.startOrJoin(UserDirectories.embeddedData(),
 *     EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
 *   String url = server.jdbcUrl(); // jdbc:clickhouse://127.0.0.1:PORT
 * }
 * }</pre>
 */
public final class EmbeddedServer implements AutoCloseable {

  /** How long a server waits, once the last process using it has left, before it stops by itself. */
  public static final Duration IDLE = IdlePeriod.DEFAULT;

  private final ServerDirectory dir;
  private final ServerRecord record;
  private final boolean started;
  private final OptionalLong clearedStalePid;
  private final ServerLease lease;
  /** The server's process when this process started it (then its exit status is known here), else null. */
  private final Process process;
  private final Instant joined = Instant.now();
  private final Thread shutdownHook;

  /** A handle on a server that serves now, holding {@code lease}; made by {@link ServerLaunch} only. */
  EmbeddedServer(ServerDirectory dir, ServerRecord record, boolean started, OptionalLong clearedStalePid,
      ServerLease lease, Process process) {
    this.dir = dir;
    this.record = record;
    this.started = started;
    this.clearedStalePid = clearedStalePid;
    this.lease = lease;
    this.process = process;
    // A process that exits lets go of its lease at once; one that is killed leaves it to expire.
    this.shutdownHook = Thread.ofPlatform().unstarted(lease::close);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** The idle period from {@code CUTOVER_SERVER_IDLE} (seconds, or 90s, 10m, 2h), else {@link #IDLE}. */
  public static Duration idleFromEnvironment() {
    return IdlePeriod.fromEnvironment();
  }

  /**
   * An idle period as an operator writes it: seconds, or a number with s, m or h. Anything else is
   * bad input named after {@code field}, the option or variable it came from.
   */
  public static Duration parseIdle(String field, String text) {
    return IdlePeriod.parse(field, text);
  }

  /** Joins the server running on {@code dataDirectory}, or starts a {@linkplain ServerAccess#restricted() restricted} one there. */
  public static EmbeddedServer startOrJoin(Path dataDirectory, EngineLibrary library, EngineProgress progress) {
    return startOrJoin(dataDirectory, library, ServerAccess.restricted(), progress);
  }

  /**
   * Joins the server running on {@code dataDirectory}, whatever its access, or starts one there with
   * {@code access}.
   *
   * @throws EmbeddedEngineException with a sentence and the tail of the server's log when it fails
   */
  public static EmbeddedServer startOrJoin(Path dataDirectory, EngineLibrary library, ServerAccess access,
      EngineProgress progress) {
    return startOrJoin(dataDirectory, library, access, idleFromEnvironment(), progress);
  }

  /**
   * As {@link #startOrJoin(Path, EngineLibrary, ServerAccess, EngineProgress)}; a server started here
   * stops {@code idle} after the last process using it has left (zero: at once).
   */
  public static EmbeddedServer startOrJoin(Path dataDirectory, EngineLibrary library, ServerAccess access,
      Duration idle, EngineProgress progress) {
    return ServerLaunch.startOrJoin(dataDirectory, library, access, idle, progress);
  }

  public String host() {
    return record.host();
  }

  public int port() {
    return record.port();
  }

  /** A JDBC URL for this server, without a database. */
  public String jdbcUrl() {
    return "jdbc:clickhouse://" + host() + ":" + port();
  }

  public Path dataDirectory() {
    return dir.root();
  }

  /** Whether the server admits only {@code operator} to do work (see {@link ServerAccess}). */
  public boolean restricted() {
    return record.restricted();
  }

  /** The ClickHouse user to connect as: {@code operator} on a restricted server, else {@code default}. */
  public String user() {
    return record.restricted() ? ServerAccess.OPERATOR : ServerAccess.DEFAULT;
  }

  /** Where that user's password comes from: the data directory's secret file, or none. */
  public PasswordSource password() {
    return record.restricted() ? PasswordSource.file(dir.secret()) : PasswordSource.none();
  }

  /** How to connect to this server, working in {@code database}. */
  public ConnectionProfile profile(String database) {
    return ConnectionProfile.of(jdbcUrl(), user(), password(), database);
  }

  /** Whether this instance started the server, rather than joining it; either way it only holds a lease. */
  public boolean owner() {
    return started;
  }

  /** The process id of the server. */
  public long pid() {
    return record.pid();
  }

  /** The exit status of the server's process, once it has ended, when this process started it. */
  java.util.OptionalInt exitStatus() {
    return process != null && !process.isAlive() ? java.util.OptionalInt.of(process.exitValue())
        : java.util.OptionalInt.empty();
  }

  ServerDirectory directory() {
    return dir;
  }

  /**
   * What became of this server, or of its successor, once its process died under {@code cutover
   * server}: {@code The embedded server restarted at 10:42:07 UTC (its engine process 1234 died:
   * signal 9, SIGKILL).}, or that it died and whether a new one comes. Empty when no death of this
   * server, nor any since this process joined it, was seen.
   */
  public Optional<String> restart() {
    return dir.readRestart().filter(r -> r.pid() == record.pid() || r.at().isAfter(joined))
        .map(r -> r.sentence(dir.log()));
  }

  /**
   * Why a connection to this server broke, as a sentence, when its process has ended: its restart
   * ({@link #restart()}), else why it stopped ({@link #whyStopped()}). Empty while it runs.
   */
  public Optional<String> whyLost() {
    if (running()) {
      return Optional.empty();
    }
    return restart().or(() -> whyStopped().map(why -> "The embedded ClickHouse stopped: " + why + "."));
  }

  /** When a dead process had left its record behind, its pid: that stale record was cleared. */
  public OptionalLong clearedStaleRecordOf() {
    return clearedStalePid;
  }

  /** Whether the server process still runs. */
  public boolean running() {
    return ProcessHandle.of(record.pid()).map(ProcessHandle::isAlive).orElse(false);
  }

  /**
   * Why this server's process ended, in words from its own log: the reason it gave when it stopped,
   * its crash file, or that it ended without a word (killed). Empty while it runs.
   */
  public Optional<String> whyStopped() {
    return ServerStop.whyStopped(dir, record.pid());
  }

  /**
   * Why this server is stopping while its process still runs (it refuses new work and its listener is
   * about to close), in the words of its log: {@code asked to stop: …}, {@code its last client left}.
   * Empty while it serves, and once it has ended (then see {@link #whyStopped()}). Cheap while it
   * serves: the log is read only once the server has marked itself as stopping.
   */
  public Optional<String> whyStopping() {
    return ServerStop.whyStopping(dir, record.pid());
  }

  /**
   * Whether this server stops, or stopped, because someone asked it to ({@code cutover server stop}),
   * rather than by its idle period, a signal or a crash: a console then leaves it stopped.
   */
  public boolean stopRequested() {
    return ServerStop.requested(dir, record.pid());
  }

  /** The reason this server gave in its log as it began to stop, if it did. */
  Optional<String> stoppingReason() {
    return ServerStop.reason(dir, record.pid());
  }

  /** Lets go of this process's lease; the server stops by itself once no process holds one for its idle period. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook is running this
    }
    lease.close();
  }

  /**
   * Stops the server now, gracefully, whoever else uses it, and lets go of this lease; returns
   * whether it stopped within the grace period.
   */
  public boolean stop(String reason) {
    // The request first: with this lease gone, a server with no other client could stop as idle before it.
    ServerStop.writeRequest(dir, reason);
    close();
    return ServerStop.request(dir, record.pid(), reason);
  }

  /**
   * Makes {@code dataDirectory} Cutover's before anything is written there: creates it owner-only when
   * missing, marks an empty one, and refuses (in an {@code InvalidInputException} on the field {@code
   * data-dir}) a relative path or a folder that holds what Cutover did not make. {@link #startOrJoin}
   * does this itself.
   */
  public static void claimDataDirectory(Path dataDirectory) {
    DirectoryClaim.claim(dataDirectory, DirectoryClaim.Kind.DATA);
  }

  /** The folder of {@code dataDirectory} where the command line and the console keep its local cluster. */
  public static Path localClusterFolder(Path dataDirectory) {
    return new ServerDirectory(dataDirectory).localCluster();
  }

  /**
   * Stops the server that runs on {@code dataDirectory}, if one does, gracefully; returns where it
   * served, or empty when none ran.
   */
  public static Optional<String> stopRunning(Path dataDirectory, String reason) {
    return ServerStop.stopRunning(new ServerDirectory(dataDirectory), reason);
  }

  /**
   * The process of the server that serves on {@code dataDirectory} now: its lock held and its record
   * published. Empty while none runs, and while one starts or stops (it withdraws its record first).
   */
  public static OptionalLong serving(Path dataDirectory) {
    return ServerStatus.serving(new ServerDirectory(dataDirectory));
  }

  /** Where the server of {@code dataDirectory} serves and since when, if one runs. */
  public static Optional<String> describeRunning(Path dataDirectory) {
    return ServerStatus.describeRunning(new ServerDirectory(dataDirectory));
  }

  /** The processes that hold a live lease on the server of {@code dataDirectory}, as {@code process N (what)}. */
  public static List<String> clients(Path dataDirectory) {
    return ServerStatus.clients(new ServerDirectory(dataDirectory));
  }

  @Override
  public String toString() {
    return "embedded ClickHouse at " + host() + ":" + port() + " (data: " + dir.root() + ")";
  }
}
