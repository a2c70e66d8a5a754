package dev.cutover.app.demo;

import dev.cutover.engine.Statements;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.InvalidInputException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's live job: a real writer that keeps the world moving. Each step advances a simulated
 * clock by ten minutes, inserts the trades, marks and FX rates that arrive in that time (late trades
 * of the previous hour included), and writes every hour that has closed to {@code pnl_v1} with the v1
 * transform: computed into a staging table, then swapped in with {@code REPLACE PARTITION}, so no
 * reader ever sees half an hour. Once {@linkplain #deployV2 v2 is deployed} from a boundary B, it
 * also writes {@code pnl_v2} with the corrected transform for every hour from B on, first catching
 * up the hours from B that had already closed, as a redeployed streaming job would. It never writes
 * v2 below B.
 *
 * <p>In a world whose v1 a materialized view feeds ({@code demo seed --live mv}), the job only inserts
 * the sources: the views write v1 and, once deployed, v2.
 *
 * <p>The clock, the boundary and the write log live in ClickHouse: a job opened later (another
 * process, after a crash, days later) continues from the last step, with no gap and no hour written
 * twice. The simulated clock does not jump to the wall clock.
 *
 * <pre>{@code
 * try (LiveJob job = LiveJob.open(statements, DemoWorld.in("trading"), LiveOptions.defaults())) {
 *   job.start();                 // one simulated hour every 30 s, on a virtual thread
 *   ...
 *   job.deployV2(Instant.parse("2026-11-29T10:00:00Z"));
 *   ...
 * }                              // stops after the current step
 * }</pre>
 */
public final class LiveJob implements AutoCloseable {

  /** How long a live job holds the world without writing, at least. */
  static final Duration MINIMUM_LEASE = Duration.ofMinutes(2);
  private static final String HOST = host();
  private static final Pattern WRITER_ID = Pattern.compile("live-(\\d+)@(.+)-[0-9a-f]{8}");

  private final Sql sql;
  private final DemoWorld world;
  private final StateStore store;
  private final HourWriter writer;
  private final LiveOptions options;
  private final String id;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile CountDownLatch stopSignal = new CountDownLatch(0);
  private volatile Thread thread;
  private volatile RuntimeException failure;

  private LiveJob(Statements statements, DemoWorld world, LiveOptions options) {
    this.sql = new Sql(statements);
    this.world = world;
    this.store = new StateStore(sql, world);
    this.writer = new HourWriter(sql, world);
    this.options = options;
    this.id = "live-" + ProcessHandle.current().pid() + "@" + HOST + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A live job for a seeded world; it writes nothing until {@link #step()} or {@link #start()}. */
  public static LiveJob open(Statements statements, DemoWorld world, LiveOptions options) {
    LiveJob job = new LiveJob(statements, world, options);
    job.requireSeeded();
    return job;
  }

  /** This job's id, as the write log and the state name it. */
  public String id() {
    return id;
  }

  public DemoState state() {
    return requireSeeded();
  }

  /**
   * Runs one step now, on this thread: sources of the next ten simulated minutes in, closed hours
   * written. Refused while the job runs in the background, or while another live job holds the world.
   */
  public LiveStep step() {
    if (running.get()) {
      throw new IllegalStateException("the live job runs in the background; stop it before stepping by hand");
    }
    try {
      return advance();
    } finally {
      release();
    }
  }

  /** Starts stepping in the background, one step every {@link LiveOptions#stepInterval()}. */
  public void start() {
    if (!running.compareAndSet(false, true)) {
      throw new IllegalStateException("the live job is already running");
    }
    try {
      claim();
    } catch (RuntimeException e) {
      running.set(false);
      throw e;
    }
    failure = null;
    stopSignal = new CountDownLatch(1);
    thread = Thread.ofVirtual().name("cutover-demo-live").start(this::loop);
  }

  /** Asks the background job to stop after its current step, and returns at once (also from a listener). */
  public void requestStop() {
    stopSignal.countDown();
  }

  /** Asks the background job to stop after its current step and waits for it. No hour is left half written. */
  public void stop() {
    stopSignal.countDown();
    Thread t = thread;
    if (t != null) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public boolean running() {
    return running.get();
  }

  /** The failure that stopped the background job, or the last retryable one; null when none. */
  public RuntimeException failure() {
    return failure;
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * Deploys the corrected writer from {@code boundary}: from the next step on, the job writes v2 for
   * every closed hour from the boundary on. Deploying again from the same boundary changes nothing;
   * another boundary is refused, because the live writer's boundary never moves.
   */
  public V2Deployment deployV2(Instant boundary) {
    Hours.requireWhole("boundary", boundary);
    DemoState state = requireSeeded();
    if (state.viewFed()) {
      throw new InvalidInputException("live", "v1 of the demo world in " + world + " is written by the materialized "
          + "views pnl_v1_mv and pnl_v1_fees_mv, not by this job; deploy the corrected views with ./cutover deploy-live --spec demo "
          + "--confirm, which picks its boundary in the future.");
    }
    if (boundary.isBefore(state.historyStart())) {
      throw new InvalidInputException("from", "The boundary " + Hours.iso(boundary) + " is before the first hour of "
          + "history, " + Hours.iso(state.historyStart()) + "; give an hour from " + Hours.iso(state.historyStart())
          + " on.");
    }
    Instant watermark = state.watermark();
    if (state.v2From().isPresent()) {
      Instant deployed = state.v2From().get();
      if (!deployed.equals(boundary)) {
        throw new InvalidInputException("from", "v2 is already deployed from " + Hours.iso(deployed) + "; the live "
            + "writer's boundary never moves, so deploy again from " + Hours.iso(deployed)
            + " or reset the demo world to choose another.");
      }
      Instant next = writer.nextUnwritten(PnlVersion.V2).filter(n -> n.isAfter(deployed)).orElse(deployed);
      return new V2Deployment(boundary, false, watermark, Math.max(0, Hours.between(next, watermark)));
    }
    store.write(DemoState.V2_FROM, DemoState.value(boundary));
    return new V2Deployment(boundary, true, watermark, Math.max(0, Hours.between(boundary, watermark)));
  }

  private void loop() {
    long interval = options.stepInterval().toNanos();
    long next = System.nanoTime();
    try {
      while (stopSignal.getCount() > 0) {
        try {
          LiveStep step = advance();
          if (step.to().isAfter(step.from()) || !step.written().isEmpty()) {
            options.onStep().accept(step);
          }
        } catch (RuntimeException e) {
          failure = e;
          options.onFailure().accept(e);
          if (!(e instanceof CutoverException known && known.retryable())) {
            break;
          }
        }
        next += interval;
        long wait = next - System.nanoTime();
        if (wait < 0) {
          next = System.nanoTime(); // behind schedule: carry on at the normal pace rather than in a burst
        }
        if (stopSignal.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      release();
      running.set(false);
    }
  }

  private LiveStep advance() {
    DemoState state = claim();
    List<HourWrite> written = new ArrayList<>(closeDueHours(state));
    if (stopSignal.getCount() == 0 && running.get()) {
      return new LiveStep(state.clock(), state.clock(), state.watermark(), written);
    }
    Instant from = state.clock();
    Instant to = from.plus(DemoState.TICK);
    new Generator(sql, world, state.seed(), state.scale(), state.viewFed()).arrivals(from, to, "live-" + from.getEpochSecond());
    store.write(Map.of(DemoState.CLOCK, DemoState.value(to), DemoState.WRITER, id,
        DemoState.WRITER_UNTIL, DemoState.value(Instant.now().plus(lease()))));
    DemoState advanced = requireSeeded();
    written.addAll(closeDueHours(advanced));
    return new LiveStep(from, to, advanced.watermark(), written);
  }

  /** Writes every closed hour not yet written: v1 from the live start, v2 from its boundary. */
  private List<HourWrite> closeDueHours(DemoState state) {
    if (state.viewFed()) {
      return List.of(); // v1 is appended to by its view as trades arrive, and v2 by the corrected view
    }
    Instant watermark = state.watermark();
    // v2 first: the corrected writer is never an hour behind the old one, so a cutover gate judged between the two
    // writes of one hour does not see v2 lagging (on a cluster, every node's gate is judged, and twice).
    List<HourWrite> v2 = new ArrayList<>();
    if (state.v2From().isPresent()) {
      Instant boundary = state.v2From().get();
      Instant v2Next = later(boundary, writer.nextUnwritten(PnlVersion.V2).orElse(boundary));
      if (v2Next.isBefore(watermark)) {
        v2.addAll(writer.replace(PnlVersion.V2, v2Next, watermark, id, this::keepGoing));
      }
    }
    List<HourWrite> written = new ArrayList<>();
    Instant v1Next = later(state.liveStart(), writer.nextUnwritten(PnlVersion.V1).orElse(state.liveStart()));
    if (v1Next.isBefore(watermark)) {
      written.addAll(writer.replace(PnlVersion.V1, v1Next, watermark, id, this::keepGoing));
    }
    written.addAll(v2);
    return written;
  }

  private boolean keepGoing() {
    return stopSignal.getCount() > 0 || !running.get();
  }

  /** Takes (or renews) the world for this job, refusing while another live job holds it. */
  private DemoState claim() {
    DemoState state = requireSeeded();
    if (isHeld(state, Instant.now()) && !state.writer().equals(id)) {
      throw new InvalidInputException("live", "Another live job (" + state.writer() + ") is writing the demo world in "
          + world + " until " + state.writerUntil().map(Instant::toString).orElse("?") + "; stop it first, or wait "
          + "for its hold to lapse if it crashed.");
    }
    store.write(Map.of(DemoState.WRITER, id, DemoState.WRITER_UNTIL, DemoState.value(Instant.now().plus(lease()))));
    return state;
  }

  /** Whether a live job holds the world at {@code now}: its hold has not lapsed and its process runs. */
  static boolean isHeld(DemoState state, Instant now) {
    return state.writerActive(now) && !heldByAGoneProcess(state.writer());
  }

  /**
   * Whether a hold was taken by a process on this host that no longer runs: it crashed, or was
   * stopped before it could let go (Ctrl-C also stops the embedded server). Its hold is void.
   */
  private static boolean heldByAGoneProcess(String writer) {
    Matcher m = WRITER_ID.matcher(writer);
    return m.matches() && m.group(2).equals(HOST)
        && ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true);
  }

  private void release() {
    try {
      DemoState state = store.read().orElse(null);
      if (state != null && state.writer().equals(id)) {
        store.write(Map.of(DemoState.WRITER, "", DemoState.WRITER_UNTIL, ""));
      }
    } catch (RuntimeException e) {
      // the hold lapses by itself
    }
  }

  private Duration lease() {
    Duration threeSteps = options.stepInterval().multipliedBy(3);
    return threeSteps.compareTo(MINIMUM_LEASE) > 0 ? threeSteps : MINIMUM_LEASE;
  }

  private DemoState requireSeeded() {
    return store.read().orElseThrow(() -> new InvalidInputException("demo database", "The demo world in " + world
        + " is not seeded; run 'cutover demo seed' first."));
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static String host() {
    String name = ManagementFactory.getRuntimeMXBean().getName();
    int at = name.indexOf('@');
    return at < 0 ? "localhost" : name.substring(at + 1);
  }
}
