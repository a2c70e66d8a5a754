package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Session;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.ui.connection.ServerLink;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The console on its own embedded server, whose cutover gate is open, when that server goes away:
 * stopped gracefully, killed, or outliving the process that started it. Within two seconds of the
 * server's end the status bar is red and says why, every screen is greyed with its actions off and
 * the gate is unknown, never the green it was; the console then starts a new server by itself, reads
 * every screen again and only then offers the cutover again. A server an operator stopped ({@code
 * cutover server stop}) stays stopped until Connect, or until another process starts one.
 */
@ExtendWith(ApplicationExtension.class)
class LostServerTest {

  /** How long the console may take to show a lost server once its process ended. */
  private static final Duration DETECTION = Duration.ofSeconds(2);
  /** How long the console may take to be back, green, with the gate judged again: a new server starts meanwhile. */
  private static final int BACK_SECONDS = 90;

  private LostServerWorld world;
  private CutoverConsole console;
  private Fx fx;

  @BeforeEach
  void data() throws Exception {
    world = new LostServerWorld();
  }

  @AfterEach
  void close() throws Exception {
    if (console != null) {
      fx.interact(() -> console.sessions().stopWatching());
      console.sessions().closeSession();
    }
    world.close();
  }

  @Test
  void aStoppedServerIsShownWithinTwoSecondsAndTheConsoleReconnectsByItself(FxRobot robot) throws Exception {
    world.openGate();
    open(robot);
    long pid = serverPid();
    Instant stopped = Instant.now();
    // The console's reconnection waits for the test, so that its screen can be looked at while it reconnects.
    world.holdReconnects();

    GateSampler sampler = GateSampler.start(console, fx);
    long asked = System.nanoTime();
    // SIGTERM, as the operating system sends it: a graceful stop nobody asked of Cutover, so the console starts a new one.
    long exited = LostServerWorld.exitOf(pid, () -> ProcessHandle.of(pid).orElseThrow().destroy());
    GateSampler.Sample lost = sampler.await(s -> s.tone().equals("lost"), asked, 10);
    // A graceful stop is logged, then the listener closes, then the process ends: the console may know before the end.
    long detected = TimeUnit.NANOSECONDS.toMillis(lost.at() - exited);
    System.out.printf("[lost server] stop: shown lost %d ms after the server process ended (%d ms after SIGTERM; a "
        + "negative figure: the console knew as the server began to stop)%n", detected,
        TimeUnit.NANOSECONDS.toMillis(lost.at() - asked));
    assertTrue(detected < DETECTION.toMillis(), "shown lost " + detected + " ms after the server ended");

    // Red, with the reason from the server's own log; the gate unknown; the screen greyed; nothing to press.
    // "The embedded ClickHouse is stopping (asked to stop: …)." as it begins to stop; "… it stopped (…)" after.
    String reason = "(the operating system asked (SIGTERM)).";
    fx.waitFor(5, () -> fx.text("status-line").contains(reason), () -> fx.text("status-line"));
    GateSampler.Sample said = sampler.await(s -> s.status().contains(reason), asked, 1);
    long saidMs = TimeUnit.NANOSECONDS.toMillis(said.at() - exited);
    System.out.printf("[lost server] stop: its reason shown %d ms after the server process ended: %s%n", saidMs,
        said.status());
    assertTrue(saidMs < DETECTION.toMillis(), "the reason shown " + saidMs + " ms after the server ended");
    // "Server lost at …" comes first, then the first attempt's line: on a loaded machine the second may follow later.
    fx.waitFor(5, () -> fx.text("status-line").startsWith("Reconnecting… (attempt 1). Server lost at "),
        () -> fx.text("status-line"));
    assertTrue(fx.node("status-bar", HBox.class).getStyleClass().contains("status-lost"));
    assertTrue(fx.node("status-line", Label.class).getStyleClass().contains("status-lost"));
    assertTrue(fx.node("cutover-run", Button.class).isDisabled(), "no cutover while the server is lost");
    assertTrue(fx.text("gate-summary").startsWith("Gate unknown: the server does not answer (since "),
        fx.text("gate-summary"));
    assertTrue(console.greyed(), "the screen is greyed");
    assertTrue(fx.text("link-strip-text").contains(reason), fx.text("link-strip-text"));
    fx.shot("12b-cutover-server-lost");

    // Back by itself: a new server, green, the gate judged again, the cutover offered again.
    long released = System.nanoTime();
    world.releaseReconnects();
    fx.waitFor(BACK_SECONDS, this::backAndOpen, () -> fx.text("status-line") + " / " + fx.text("gate-summary"));
    GateSampler.Sample back = sampler.await(s -> s.tone().equals("ok") && !s.greyed(), lost.at(), 5);
    System.out.printf("[lost server] stop: a new server started, every screen read again and the cutover offered "
        + "%d ms after the test let the console reconnect%n", TimeUnit.NANOSECONDS.toMillis(back.at() - released));
    sampler.stop();
    sampler.assertLostShownAlike();
    sampler.assertNoStaleGate(stopped, exited, lost, back);
    assertNotEquals(pid, serverPid(), "a new server runs");
    assertTrue(console.cutover().judgedAtProperty().get().isAfter(stopped), "the gate was judged again");
    assertEquals("Connected", fx.onFx(() -> console.connection().stateProperty().get().label()));
    assertTrue(fx.node("status-bar", HBox.class).getStyleClass().contains("status-ok"));
    fx.shot("12c-cutover-reconnected");
  }

  @Test
  void aKilledServerIsShownAsKilledAndTheConsoleStartsANewOne(FxRobot robot) throws Exception {
    world.openGate();
    open(robot);
    long pid = serverPid();
    Instant killed = Instant.now();
    world.holdReconnects();
    GateSampler sampler = GateSampler.start(console, fx);
    long asked = System.nanoTime();
    long exited = LostServerWorld.exitOf(pid, () -> ProcessHandle.of(pid).orElseThrow().destroyForcibly());
    GateSampler.Sample lost = sampler.await(s -> s.tone().equals("lost"), asked, 10);
    long detected = TimeUnit.NANOSECONDS.toMillis(lost.at() - exited);
    System.out.printf("[lost server] kill: shown lost %d ms after the server process was killed%n", detected);
    assertTrue(detected < DETECTION.toMillis(), "shown lost " + detected + " ms after the server was killed");
    // A connection can break a moment before the process is gone: the reason may follow the loss by one check.
    GateSampler.Sample why = sampler.await(s -> s.tone().equals("lost") && s.status().contains(": it was killed."),
        asked, 10);
    long explained = TimeUnit.NANOSECONDS.toMillis(why.at() - exited);
    assertTrue(explained < DETECTION.toMillis(), "the reason shown " + explained + " ms after the server was killed");
    assertTrue(why.status().contains("The embedded ClickHouse stopped: its process " + pid + " ended without a word "
        + "in "), why.status());
    assertTrue(fx.node("cutover-run", Button.class).isDisabled());
    assertTrue(fx.text("gate-summary").startsWith("Gate unknown: "), fx.text("gate-summary"));

    // The connection screen says the same while the console reconnects.
    fx.click("nav-connection");
    fx.waitFor(10, () -> fx.text("connection-state").equals("Reconnecting"), () -> fx.text("connection-state"));
    assertTrue(fx.text("connection-step").contains("it was killed."), fx.text("connection-step"));
    fx.shot("02b-connection-server-lost");
    // Connect, pressed meanwhile, opens the new session itself; the screens read again on it, shown or not.
    fx.click("connection-connect");
    world.releaseReconnects();
    fx.waitFor(BACK_SECONDS, () -> console.connection().stateProperty().get().label().equals("Connected")
        && !console.workspace().lost().get(), () -> fx.text("connection-state") + " / " + fx.text("connection-step"));
    fx.waitFor(BACK_SECONDS, () -> console.workspace().freshProperty().get()
        && console.cutover().judgedAtProperty().get() != null
        && console.cutover().judgedAtProperty().get().isAfter(killed), () -> "the gate was not judged again");
    long fresh = serverPid();
    assertNotEquals(pid, fresh, "the console started a new server");
    assertTrue(ProcessHandle.of(fresh).map(ProcessHandle::isAlive).orElse(false));
    assertEquals("Embedded, started by this console", fx.text("connection-mode"));

    fx.click("nav-cutover");
    fx.waitFor(BACK_SECONDS, this::backAndOpen, () -> fx.text("status-line") + " / " + fx.text("gate-summary"));
    GateSampler.Sample back = sampler.await(s -> s.tone().equals("ok") && !s.greyed(), lost.at(), 5);
    sampler.stop();
    sampler.assertLostShownAlike();
    sampler.assertNoStaleGate(killed, exited, lost, back);
    assertTrue(console.cutover().judgedAtProperty().get().isAfter(killed), "the gate was judged again");
  }

  @Test
  void theServerOutlivesTheProcessThatStartedItAndConnectRedoesTheSession(FxRobot robot) throws Exception {
    long pid = world.startHolder();
    world.openGate();
    open(robot);
    assertEquals(pid, serverPid(), "the console joined the server the other process started");
    assertEquals("Embedded, shared with another Cutover process",
        fx.onFx(() -> console.connection().facts().modeProperty().get()));

    Instant killed = Instant.now();
    world.killHolder();
    // Leases expire after 30 s and the server looks every second: a starter's death must not take it down.
    long until = System.nanoTime() + Duration.ofSeconds(12).toNanos();
    while (System.nanoTime() < until) {
      assertEquals(ServerLink.State.CONNECTED, fx.onFx(() -> console.workspace().linkProperty().get().state()),
          () -> fx.text("status-line"));
      assertEquals("ok", fx.onFx(() -> console.connection().statusToneProperty().get()));
      assertFalse(fx.onFx(console::greyed));
      assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the server runs");
      Thread.sleep(200);
    }
    fx.click("gate-refresh");
    fx.waitFor(60, () -> console.cutover().judgedAtProperty().get() != null
        && console.cutover().judgedAtProperty().get().isAfter(killed) && backAndOpen(), () -> fx.text("gate-summary"));
    assertTrue(Files.readString(world.data.resolve("server.log")).contains("is gone without letting go"),
        "the server saw its starter go");

    // Connect opens a new session, closes the old one, and every screen reads again.
    Session before = console.sessions().session();
    Instant clicked = Instant.now();
    fx.click("nav-connection");
    fx.click("connection-connect");
    fx.waitFor(60, () -> console.sessions().session() != before && console.workspace().freshProperty().get()
        && console.cutover().judgedAtProperty().get() != null
        && console.cutover().judgedAtProperty().get().isAfter(clicked), () -> fx.text("connection-state"));
    fx.waitFor(30, () -> LostServerWorld.closed(before), () -> "the old session is still open");
    assertEquals(pid, serverPid(), "the same server: a new session, not a new server");
    fx.click("nav-cutover");
    fx.waitFor(30, this::backAndOpen, () -> fx.text("gate-summary"));
  }

  @Test
  void aServerAnOperatorStoppedStaysStoppedAndTheConsoleJoinsTheNextOne(FxRobot robot) throws Exception {
    world.openGate();
    open(robot);
    long pid = serverPid();
    Instant stopped = Instant.now();
    GateSampler sampler = GateSampler.start(console, fx);
    long asked = System.nanoTime();
    // What cutover server stop does: the operator wants it stopped, and the console must not undo that.
    long exited = LostServerWorld.exitOf(pid, () -> EmbeddedServer.stopRunning(world.data, "cutover server stop, by ops"));
    GateSampler.Sample lost = sampler.await(s -> s.tone().equals("lost"), asked, 10);
    assertTrue(TimeUnit.NANOSECONDS.toMillis(lost.at() - exited) < DETECTION.toMillis());
    fx.waitFor(5, () -> fx.text("status-line").startsWith("Server stopped at "), () -> fx.text("status-line"));
    assertTrue(fx.text("status-line").contains("(asked to stop: cutover server stop, by ops)."), fx.text("status-line"));
    assertTrue(fx.text("status-line").endsWith("It stays stopped: Connect starts it again (Cutover joins one that "
        + "another process starts)."), fx.text("status-line"));
    assertTrue(fx.text("gate-summary").startsWith("Gate unknown: "), fx.text("gate-summary"));
    assertTrue(fx.node("cutover-run", Button.class).isDisabled());
    // It stays stopped: no server on the data directory, nothing attempted, for several of the watch's periods.
    long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
    while (System.nanoTime() < until) {
      assertTrue(EmbeddedServer.serving(world.data).isEmpty(), "the console started a server the operator stopped");
      assertEquals(ServerLink.State.STOPPED, fx.onFx(() -> console.workspace().linkProperty().get().state()));
      Thread.sleep(250);
    }
    fx.shot("12d-cutover-server-stopped");

    // Another process starts one on the data directory: the console joins it by itself.
    try (Session other = world.startedElsewhere()) {
      fx.waitFor(BACK_SECONDS, this::backAndOpen, () -> fx.text("status-line") + " / " + fx.text("gate-summary"));
      assertEquals(other.embedded().orElseThrow().pid(), serverPid(), "the console joined the server another started");
      GateSampler.Sample back = sampler.await(s -> s.tone().equals("ok") && !s.greyed(), lost.at(), 5);
      sampler.stop();
      sampler.assertNoStaleGate(stopped, exited, lost, back);
    }
  }

  private void open(FxRobot robot) {
    ConsoleWindow window = world.openConsole(robot, new ScriptedDialogs());
    console = window.console();
    fx = window.fx();
    fx.click("nav-cutover");
    fx.waitFor(60, this::backAndOpen, () -> fx.text("gate-summary") + " " + console.cutover().activity().error());
  }

  /** Green, not greyed, the cutover gate open and the cutover offered. */
  private boolean backAndOpen() {
    return console.connection().statusToneProperty().get().equals("ok") && !console.greyed()
        && fx.text("gate-summary").equals(GateSampler.OPEN) && !fx.node("cutover-run", Button.class).isDisabled();
  }

  private long serverPid() {
    return fx.onFx(() -> console.sessions().session().embedded().orElseThrow().pid());
  }
}
