package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Gate;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.Label;

/**
 * What the console shows of the gate, read on the FX thread every 50 ms while a server is lost and
 * found again: the gate's headline (when the Cutover screen is shown), whether Cut over… is offered,
 * the model's gate, the status bar's tone and whether the console knows the server is lost.
 */
final class GateSampler {

  static final String OPEN = "Cutover gate open: every condition is met";

  /** One reading; {@code at} is {@link System#nanoTime()} on the FX thread. */
  record Sample(long at, String headline, boolean cutOffered, boolean modelOpen, Instant judged, String tone,
      String status, boolean redBar, boolean greyed, boolean linkLost) {
    boolean showsOpen() {
      return headline.contains("open") || cutOffered || modelOpen;
    }
  }

  private final CutoverConsole console;
  private final Fx fx;
  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  private GateSampler(CutoverConsole console, Fx fx) {
    this.console = console;
    this.fx = fx;
  }

  static GateSampler start(CutoverConsole console, Fx fx) {
    GateSampler s = new GateSampler(console, fx);
    s.timer.scheduleAtFixedRate(() -> Platform.runLater(s::take), 0, 50, TimeUnit.MILLISECONDS);
    return s;
  }

  private void take() {
    Label headline = fx.node("gate-summary", Label.class);
    Button cut = fx.node("cutover-run", Button.class);
    Gate gate = console.cutover().gateProperty().get();
    samples.add(new Sample(System.nanoTime(), headline == null ? "" : headline.getText(),
        cut != null && !cut.isDisabled(), gate != null && gate.open() && gate.step().equals(Gate.CUTOVER),
        console.cutover().judgedAtProperty().get(), console.connection().statusToneProperty().get(), console.connection().statusLineProperty().get(),
        fx.node("status-bar", javafx.scene.Node.class).getStyleClass().contains("status-lost"), console.greyed(),
        console.workspace().lost().get()));
  }

  /** The first sample taken after {@code after} (nano time) that matches; fails after {@code seconds}. */
  Sample await(Predicate<Sample> match, long after, int seconds) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < until) {
      for (Sample s : samples) {
        if (s.at() > after && match.test(s)) {
          return s;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no sample matched within " + seconds + " s; the last: "
        + (samples.isEmpty() ? "none" : samples.getLast()));
  }

  void stop() {
    timer.shutdownNow();
  }

  /**
   * Every sample taken while the console knew the server lost shows it alike, at the same moment: the
   * status bar red, and on the Cutover screen the gate unknown, the screen greyed, nothing offered.
   */
  void assertLostShownAlike() {
    for (Sample s : samples) {
      if (!s.linkLost()) {
        continue;
      }
      assertTrue(s.tone().equals("lost") && s.redBar(), () -> "the status bar is not red while lost: " + s);
      assertFalse(s.cutOffered(), () -> "Cut over… is offered while lost: " + s);
      if (!s.headline().isEmpty()) {
        assertTrue(s.headline().startsWith("Gate unknown: the server does not answer (since "), () -> "the gate is "
            + "not unknown while lost: " + s);
        assertTrue(s.greyed(), () -> "the screen is not greyed while lost: " + s);
      }
    }
  }

  /**
   * No sample shows the gate open while the console knows the server is lost, nor at any moment from
   * when it was shown lost until it was connected again; from then until it has read every screen
   * again, the gate may show open only as judged after {@code before} (the loss) and the cutover is
   * not offered. Prints how long the gate still showed its judgement from before after the server's
   * process had ended (the console cannot know sooner than its probe; a graceful stop is logged before
   * the listener closes, and then it knows before).
   */
  void assertNoStaleGate(Instant before, long exited, Sample lost, Sample back) {
    for (Sample s : samples) {
      assertFalse(s.linkLost() && s.showsOpen(), () -> "the gate shows open while the server is known lost: " + s);
      if (s.at() >= lost.at() && s.at() < back.at()) {
        boolean fresh = s.judged() != null && s.judged().isAfter(before);
        assertFalse(s.showsOpen() && (!s.tone().equals("ok") || !fresh), () -> "the gate shows a judgement from "
            + "before the loss between the loss and the reconnect: " + s);
        assertFalse(s.cutOffered(), () -> "Cut over… is offered before every screen has read again: " + s);
      }
    }
    List<Sample> stale = samples.stream().filter(s -> s.at() >= exited && s.at() < lost.at() && s.showsOpen()).toList();
    long span = stale.isEmpty() ? 0 : TimeUnit.NANOSECONDS.toMillis(stale.getLast().at() - exited);
    System.out.printf("[lost server] %d samples; %d showed the gate judged before the loss after the server's process "
        + "had ended and before the console knew (the last %d ms after the end); none did from then on, and the "
        + "cutover was offered again %d ms after the end%n", samples.size(), stale.size(), span,
        TimeUnit.NANOSECONDS.toMillis(back.at() - exited));
  }
}
