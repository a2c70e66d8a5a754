package dev.cutover.ui;

import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.connection.ConnectionWatch;
import dev.cutover.ui.connection.ServerLink;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.repair.RepairWatch;
import dev.cutover.ui.tasks.TaskExecutor;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * What the screens share, on the FX thread: the engine once connected, whether its server answers,
 * the loaded spec, the plan and its preflight, where the repair stands, the theme's palette, and the
 * doors to background work and to the operator.
 */
public final class Workspace {

  private final TaskExecutor executor;
  private final DialogService dialogs;
  private final ObjectProperty<DemoControls> demo = new SimpleObjectProperty<>();
  private final javafx.beans.property.BooleanProperty driving = new javafx.beans.property.SimpleBooleanProperty();
  private final BooleanProperty drivingShards = new SimpleBooleanProperty();
  private final javafx.beans.property.StringProperty server = new javafx.beans.property.SimpleStringProperty("");
  private final ObjectProperty<Engine> engine = new SimpleObjectProperty<>();
  private final ObjectProperty<TargetRepair> opened = new SimpleObjectProperty<>();
  private final ObjectProperty<TableSpec> spec = new SimpleObjectProperty<>();
  private final ObjectProperty<Plan> plan = new SimpleObjectProperty<>();
  private final ObjectProperty<Preflighted> preflight = new SimpleObjectProperty<>();
  private final ObjectProperty<Palette> palette = new SimpleObjectProperty<>(Palette.LIGHT);
  private final ConnectionWatch connectionWatch;
  private final BooleanProperty fresh = new SimpleBooleanProperty(true);
  private final BooleanBinding lost;
  private final BooleanBinding online;
  private final RepairWatch repair;

  public Workspace(TaskExecutor executor, DialogService dialogs) {
    this.executor = executor;
    this.dialogs = dialogs;
    this.connectionWatch = new ConnectionWatch(executor);
    ReadOnlyObjectProperty<ServerLink> link = connectionWatch.linkProperty();
    this.lost = Bindings.createBooleanBinding(() -> link.get().lost(), link);
    this.online = lost.not().and(fresh);
    this.repair = new RepairWatch(executor, engine, spec, opened, lost.not());
    // A new spec invalidates what was planned and checked for the old one.
    spec.addListener((o, was, is) -> {
      plan.set(null);
      preflight.set(null);
      if (is == null || (opened.get() != null && !opened.get().spec().equals(is))) {
        opened.set(null);
      }
    });
    // The repair of a sharded table holds a connection to every node: the one it replaces closes in the background.
    opened.addListener((o, was, is) -> {
      if (was != null && was != is) {
        executor.submit(p -> {
          was.close();
          return true;
        }, closed -> {}, failure -> {});
      }
    });
    plan.addListener((o, was, is) -> preflight.set(null));
  }

  public TaskExecutor executor() {
    return executor;
  }

  public DialogService dialogs() {
    return dialogs;
  }

  /** The demo world's controls while the console is connected to the demo's embedded server. */
  public Optional<DemoControls> demo() {
    return Optional.ofNullable(demo.get());
  }

  public ObjectProperty<DemoControls> demoProperty() {
    return demo;
  }

  /** Whether this console drives a backfill on the shards of a cluster now: part of {@link #drivingProperty()}. */
  public BooleanProperty drivingShardsProperty() {
    return drivingShards;
  }

  /** Whether this console drives a backfill run now; it may not connect elsewhere meanwhile. */
  public javafx.beans.property.BooleanProperty drivingProperty() {
    return driving;
  }

  /**
   * Which server the console works on, in words (the profile's name, and the session's version, address and
   * database), for the confirmations of dangerous steps; empty while no session is open.
   */
  public javafx.beans.property.StringProperty serverProperty() {
    return server;
  }

  /** {@link #serverProperty()}'s words, or "no server" while no session is open. */
  public String server() {
    return server.get().isEmpty() ? "no server" : server.get();
  }

  public ObjectProperty<Engine> engineProperty() {
    return engine;
  }

  public Engine engine() {
    return engine.get();
  }

  public ObjectProperty<TableSpec> specProperty() {
    return spec;
  }

  public TableSpec spec() {
    return spec.get();
  }

  public ObjectProperty<Plan> planProperty() {
    return plan;
  }

  public Plan plan() {
    return plan.get();
  }

  /** The preflight of the current plan: its checks and, when none failed, the plan it cleared. */
  public ObjectProperty<Preflighted> preflightProperty() {
    return preflight;
  }

  /**
   * Where the loaded spec's repair stands, read in the background. A screen whose step may have
   * changed the repair (a backfill started or ended, a reconciliation, a swap, an abandonment) calls
   * {@code repair().refresh()}.
   */
  public RepairWatch repair() {
    return repair;
  }

  /** Whether the server answers, probed about once a second; the connection screen starts and restarts it. */
  public ConnectionWatch connectionWatch() {
    return connectionWatch;
  }

  public ReadOnlyObjectProperty<ServerLink> linkProperty() {
    return connectionWatch.linkProperty();
  }

  /**
   * Whether the server does not answer (or the console is reconnecting to it): what the screens show
   * was read before and may no longer hold, and nothing may be written or switched.
   */
  public BooleanBinding lost() {
    return lost;
  }

  /**
   * Whether what the screens show was read from the session open now. False from a reconnect until
   * every screen has read again: their actions wait for it.
   */
  public BooleanProperty freshProperty() {
    return fresh;
  }

  /** Whether the screens may act: the server answers and they have read from it since the last reconnect. */
  public BooleanBinding online() {
    return online;
  }

  public ObjectProperty<Palette> paletteProperty() {
    return palette;
  }

  /**
   * The loaded spec's repair over its nodes, opened with the spec (on every node of its cluster for a sharded
   * table, which the spec's load opens before it is shown); null before a spec is loaded. Every screen past the
   * connection works on it, through its steps.
   */
  public ObjectProperty<TargetRepair> openRepairProperty() {
    return opened;
  }

  /**
   * The loaded spec's repair over its nodes, chosen on the FX thread without reading anything: the one opened for
   * this spec, or for a table on one server the engine's (nothing to open); null while there is neither.
   */
  public TargetRepair targetRepair() {
    TableSpec s = spec.get();
    Engine e = engine.get();
    if (s == null || e == null) {
      return null;
    }
    TargetRepair r = opened.get();
    if (r != null && r.spec().equals(s)) {
      return r;
    }
    return s.cluster().isEmpty() ? e.repair(s) : null; // one server's steps: nothing to open
  }

  /** {@code steps} of the loaded spec's repair ({@link #targetRepair}), or null while there is none. */
  public <T> T stepsOf(java.util.function.Function<TargetRepair, T> steps) {
    TargetRepair r = targetRepair();
    return r == null ? null : steps.apply(r);
  }

  /** Whether the spec loaded names a cluster: the screens of one server stay shut, since none would be true of every shard. */
  public BooleanBinding clusterSpec() {
    return Bindings.createBooleanBinding(() -> spec.get() != null && spec.get().cluster().isPresent(), spec);
  }

  /** Whether the screens of one server can work: connected and a spec of one server's table loaded. */
  public BooleanBinding ready() {
    return engine.isNotNull().and(spec.isNotNull()).and(clusterSpec().not());
  }

  /**
   * Whether the screens that serve a table on one server and a sharded one alike (Reconcile, History) can work:
   * connected with a spec of one server's table, or with a sharded table's repair open on every node.
   */
  public BooleanBinding readyForEither() {
    return ready().or(shardedReady());
  }

  /** Whether a sharded table's repair can be worked on: connected, and the repair opened on every node of its cluster. */
  public BooleanBinding shardedReady() {
    return engine.isNotNull().and(clusterSpec()).and(opened.isNotNull());
  }
}
