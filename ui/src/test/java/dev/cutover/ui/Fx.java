package dev.cutover.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** Small helpers for console tests: wait for a condition on the FX thread, read a node, write a screenshot. */
final class Fx {

  private final FxRobot robot;
  private final Scene scene;

  Fx(FxRobot robot, Scene scene) {
    this.robot = robot;
    this.scene = scene;
  }

  /** Waits until {@code condition}, read on the FX thread, holds; fails with {@code why()} after the timeout. */
  void waitFor(int seconds, Callable<Boolean> condition, Supplier<String> why) {
    try {
      WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> onFx(condition));
    } catch (TimeoutException e) {
      throw new AssertionError("timed out after " + seconds + " s: " + onFx(why::get), e);
    }
  }

  /**
   * As {@link #waitFor}, the condition asked on the test's own thread: for a condition that reads the server, which
   * on the FX thread would hold back every result the console waits to show.
   */
  void waitOffFx(int seconds, Callable<Boolean> condition, Supplier<String> why) {
    try {
      WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
    } catch (TimeoutException e) {
      throw new AssertionError("timed out after " + seconds + " s: " + why.get(), e);
    }
  }

  <T> T onFx(Callable<T> read) {
    if (Platform.isFxApplicationThread()) {
      try {
        return read.call();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    return WaitForAsyncUtils.waitFor(WaitForAsyncUtils.asyncFx(read));
  }

  <T extends Node> T node(String id, Class<T> type) {
    return onFx(() -> type.cast(scene.lookup("#" + id)));
  }

  /**
   * The text a label draws now, laid out at its present size: its own text when it fits, or what JavaFX cut it to
   * (ending in an ellipsis) when it does not. An operator reads this one.
   */
  String drawn(String id) {
    return onFx(() -> {
      Labeled l = (Labeled) scene.lookup("#" + id);
      if (l == null) {
        throw new AssertionError("no node #" + id + " on screen");
      }
      scene.getRoot().applyCss();
      scene.getRoot().layout();
      Node text = l.lookup(".text");
      return text instanceof javafx.scene.text.Text t ? t.getText() : "";
    });
  }

  /**
   * The cells and column headers of table {@code id} whose text JavaFX cut to fit (ending in an ellipsis), each as
   * {@code column: text}: empty when every figure and header on screen is read whole.
   */
  java.util.List<String> cutCells(String id) {
    return onFx(() -> {
      Node table = scene.lookup("#" + id);
      if (table == null) {
        throw new AssertionError("no node #" + id + " on screen");
      }
      scene.getRoot().applyCss();
      scene.getRoot().layout();
      java.util.List<String> cut = new java.util.ArrayList<>();
      for (Node n : table.lookupAll(".table-cell")) {
        if (n instanceof javafx.scene.control.TableCell<?, ?> c && n.isVisible() && cut(c)) {
          cut.add(c.getTableColumn().getText() + ": " + c.getText());
        }
      }
      for (Node n : table.lookupAll(".column-header .label")) {
        if (n instanceof Labeled l && cut(l)) {
          cut.add("header: " + l.getText());
        }
      }
      return cut;
    });
  }

  static boolean cut(Labeled l) {
    if (l.getText() == null || l.getText().isEmpty()) {
      return false;
    }
    // A mnemonic's underscore is not drawn: "_Load" is drawn whole as "Load".
    String whole = l.isMnemonicParsing() ? l.getText().replaceFirst("_(.)", "$1") : l.getText();
    // The label's own text is its skin's child; a graphic (a step's number) holds texts of its own.
    for (Node child : l.getChildrenUnmodifiable()) {
      if (child instanceof javafx.scene.text.Text t) {
        return !t.getText().equals(whole);
      }
    }
    return false;
  }

  /** The id of the node that has the keyboard's focus now, or empty. */
  String focusedId() {
    return onFx(() -> scene.getFocusOwner() == null || scene.getFocusOwner().getId() == null ? ""
        : scene.getFocusOwner().getId());
  }

  String text(String id) {
    return onFx(() -> {
      Node n = scene.lookup("#" + id);
      if (n == null) {
        throw new AssertionError("no node #" + id + " on screen");
      }
      return n instanceof Labeled l ? l.getText() : ((TextInputControl) n).getText();
    });
  }

  void click(String id) {
    Node n = node(id, Node.class);
    if (n == null) {
      throw new AssertionError("no node #" + id + " on screen");
    }
    robot.clickOn(n);
    WaitForAsyncUtils.waitForFxEvents();
  }

  void interact(Runnable action) {
    robot.interact(action);
    WaitForAsyncUtils.waitForFxEvents();
  }

  /**
   * The window at {@code width} × {@code height} for what {@code atThatSize} checks and shoots (a larger display
   * than the 1280 × 800 the tests run at), then back at its own size.
   */
  void atSize(double width, double height, Runnable atThatSize) {
    javafx.stage.Window window = onFx(scene::getWindow);
    double[] was = onFx(() -> new double[] {window.getWidth(), window.getHeight(), scene.getWidth(), scene.getHeight(),
        window.getX(), window.getY()});
    // In the screen's corner: the headless screen (1600 × 1000, see the root pom) draws no window past its edge.
    interact(() -> {
      window.setX(0);
      window.setY(0);
      window.setWidth(width + was[0] - was[2]);
      window.setHeight(height + was[1] - was[3]);
    });
    try {
      atThatSize.run();
    } finally {
      interact(() -> {
        window.setWidth(was[0]);
        window.setHeight(was[1]);
        window.setX(was[4]);
        window.setY(was[5]);
      });
    }
  }

  /**
   * Shoots the screen as it is, then at 1600 × 1000 as {@code name-1600x1000} (unless the name gives its size), and
   * fails at either size if a label, button, table cell or column header on screen is cut short.
   */
  Path shot(String name) {
    Path file = shotHere(name);
    if (!name.endsWith("x1000")) {
      atSize(1600, 1000, () -> shotHere(name + "-1600x1000"));
    }
    // And in the other theme, at the tests' 1280 × 800: a theme changes colours, and must cut nothing.
    javafx.scene.control.ButtonBase theme = node("theme-toggle", javafx.scene.control.ButtonBase.class);
    if (theme != null) {
      interact(theme::fire);
      try {
        assertWhole(name + " in the other theme");
      } finally {
        interact(theme::fire);
      }
    }
    return file;
  }

  private void assertWhole(String screen) {
    requireWhole(cutOnScreen(), clippedOnScreen(), "on screen " + screen);
  }

  /** Fails, saying {@code where}, when a text was found cut short ({@code cut}) or spilling out of its box. */
  static void requireWhole(java.util.List<String> cut, java.util.List<String> clipped, String where) {
    if (!cut.isEmpty()) {
      throw new AssertionError("text cut short " + where + ": " + cut);
    }
    if (!clipped.isEmpty()) {
      throw new AssertionError("text spills out of its box " + where + ": " + clipped);
    }
  }

  /** What {@code collect} finds under {@code root} as it is laid out now; on the FX thread. */
  static java.util.List<String> found(Node root, java.util.function.BiConsumer<Node, java.util.List<String>> collect) {
    java.util.List<String> out = new java.util.ArrayList<>();
    collect.accept(root, out);
    return out;
  }

  /** What {@code collect} finds on screen, once the scene's CSS and layout are current. */
  private java.util.List<String> onScreen(java.util.function.BiConsumer<Node, java.util.List<String>> collect) {
    return onFx(() -> {
      scene.getRoot().applyCss();
      scene.getRoot().layout();
      return found(scene.getRoot(), collect);
    });
  }

  private Path shotHere(String name) {
    WaitForAsyncUtils.waitForFxEvents();
    Path file = onFx(() -> {
      scene.getRoot().applyCss();
      scene.getRoot().layout();
      try {
        return Screenshots.write(scene, name);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    assertWhole(name);
    return file;
  }

  /**
   * Every text on screen that JavaFX cut to fit (ending in an ellipsis): labels, buttons, table cells and column
   * headers that are shown, each as {@code id or column: text}. Empty when everything an operator reads is whole.
   */
  java.util.List<String> cutOnScreen() {
    return onScreen(Fx::collectCut);
  }

  /**
   * Texts on screen that lie partly outside a box that holds them: a label, button or cell whose bounds leave those of
   * an enclosing region (up to the nearest scroll pane, table body or list, where a row or line half shown is
   * scrolled, not lost), so that part of it is drawn over the next box or not at all. Each as {@code id: text}.
   */
  java.util.List<String> clippedOnScreen() {
    return onScreen(Fx::collectClipped);
  }

  static void collectClipped(Node n, java.util.List<String> clipped) {
    if (!n.isVisible() || n instanceof javafx.scene.control.ScrollPane || n instanceof javafx.scene.control.TableView<?>
        || n instanceof javafx.scene.control.ListView<?> || n instanceof javafx.scene.control.TextInputControl) {
      return;
    }
    if (n instanceof Labeled l && l.getText() != null && !l.getText().isBlank()) {
      javafx.geometry.Bounds own = l.localToScene(l.getLayoutBounds());
      for (javafx.scene.Parent up = l.getParent(); up != null; up = up.getParent()) {
        if (up instanceof javafx.scene.layout.Region r && !(up instanceof javafx.scene.control.Control)) {
          javafx.geometry.Bounds box = r.localToScene(r.getLayoutBounds());
          if (own.getMinX() < box.getMinX() - 1 || own.getMaxX() > box.getMaxX() + 1
              || own.getMinY() < box.getMinY() - 1 || own.getMaxY() > box.getMaxY() + 1) {
            clipped.add((l.getId() != null ? l.getId() : l.getClass().getSimpleName()) + ": " + l.getText()
                + " (outside " + (r.getId() != null ? r.getId() : r.getClass().getSimpleName()) + ")");
            break;
          }
        }
      }
      return;
    }
    if (n instanceof javafx.scene.Parent p) {
      for (Node child : p.getChildrenUnmodifiable()) {
        collectClipped(child, clipped);
      }
    }
  }

  static void collectCut(Node n, java.util.List<String> cut) {
    if (!n.isVisible()) {
      return;
    }
    if (n instanceof Labeled l && cut(l)) {
      String where = l instanceof javafx.scene.control.TableCell<?, ?> c && c.getTableColumn() != null
          ? c.getTableColumn().getText() : l.getId() != null ? l.getId() : l.getClass().getSimpleName();
      cut.add(where + ": " + l.getText());
    }
    if (n instanceof javafx.scene.Parent p) {
      for (Node child : p.getChildrenUnmodifiable()) {
        collectCut(child, cut);
      }
    }
  }
}
