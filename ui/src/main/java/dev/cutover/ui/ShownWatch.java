package dev.cutover.ui;

import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A cheap read every {@link #PERIOD} while a screen is shown, so that what another console or the command
 * line did reaches the screen without a click: one read at a time, none while the screen's own step
 * runs or the server does not answer. An answer for another spec or connection, one that arrives once
 * a step has started here, or one asked for before the screen was last hidden, is dropped. A read
 * that fails changes nothing; the next one tries again (the connection's own watch says when the
 * server is lost).
 *
 * <pre>{@code
 * watch = new ShownWatch<>(workspace, activity,
 *     (engine, spec) -> engine.reconciliations().stored(spec), this::compare);
 * watch.start(); // in shown()
 * watch.stop();  // in hidden()
 * }</pre>
 */
public final class ShownWatch<T> {

  private final Workspace workspace;
  private final Activity activity;
  private final Function<Asked, T> read;
  private final Consumer<T> apply;
  private TaskExecutor.Handle timer;
  private boolean reading;
  /** Counts the stops: an answer asked for before the last one is dropped. */
  private long generation;

  /** How often a shown screen looks: what another process did is on it within seconds, at a read's cost. */
  public static final Duration PERIOD = Duration.ofSeconds(5);

  /** What a look is asked of, chosen on the FX thread: the engine, the spec loaded, and its repair over its nodes. */
  private record Asked(Engine engine, TableSpec spec, TargetRepair repair) {}

  /** {@code read} runs off the FX thread; {@code apply} on it, with the answer for the spec loaded now. */
  public ShownWatch(Workspace workspace, Activity activity, BiFunction<Engine, TableSpec, T> read, Consumer<T> apply) {
    this(workspace, activity, (Function<Asked, T>) a -> read.apply(a.engine(), a.spec()), apply);
  }

  private ShownWatch(Workspace workspace, Activity activity, Function<Asked, T> read, Consumer<T> apply) {
    this.workspace = workspace;
    this.activity = activity;
    this.read = read;
    this.apply = apply;
  }

  /**
   * A watch that reads the loaded spec's repair over its nodes ({@link Workspace#targetRepair()}, chosen on the FX
   * thread); no look is made while there is none (a sharded table's, before it is open on every node).
   */
  public static <T> ShownWatch<T> ofRepair(Workspace workspace, Activity activity, Function<TargetRepair, T> read,
      Consumer<T> apply) {
    return new ShownWatch<>(workspace, activity, (Function<Asked, T>) a -> read.apply(a.repair()), apply);
  }

  /** Reads every {@link #PERIOD} from now on, until {@link #stop()}; starting twice starts one timer. */
  public void start() {
    if (timer == null) {
      timer = workspace.executor().every(PERIOD, this::look);
    }
  }

  /**
   * Stops the timer; the answer of a read still under way is dropped, and one that hangs on a lost
   * connection does not hold back the reads of a later {@link #start()}.
   */
  public void stop() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    generation++;
    reading = false;
  }

  private void look() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (reading || spec == null || engine == null || activity.running() || workspace.lost().get()) {
      return;
    }
    TargetRepair repair = workspace.targetRepair();
    if (repair == null) {
      return;
    }
    reading = true;
    long asked = generation;
    Asked of = new Asked(engine, spec, repair);
    workspace.executor().submit(p -> read.apply(of), answer -> {
      if (asked != generation) {
        return; // stopped since: the screen is hidden, or shown anew with reads of its own
      }
      reading = false;
      if (spec == workspace.spec() && engine == workspace.engine() && !activity.running()) {
        apply.accept(answer);
      }
    }, failure -> {
      if (asked == generation) {
        reading = false;
      }
    });
  }
}
