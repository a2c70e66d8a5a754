package dev.cutover.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;

/**
 * Writes a PNG of a scene into the module's build directory ({@code ui/target/screenshots}, set by
 * the build), never into the tracked {@code screenshots/}: {@code tools/refresh-screenshots.sh}
 * copies them there when the operator means to.
 */
public final class Screenshots {

  private Screenshots() {}

  /** Must be called on the FX thread. */
  public static Path write(Scene scene, String name) throws IOException {
    Path dir = Path.of(System.getProperty("cutover.screenshots", "target/screenshots"));
    Files.createDirectories(dir);
    WritableImage image = scene.snapshot(null);
    Path file = dir.resolve(name + ".png");
    ImageIO.write(SwingFXUtils.fromFXImage(image, null), "png", file.toFile());
    return file;
  }

  /**
   * Shoots {@code dialog} as {@code name} in the light theme and as {@code name-dark} in the dark one, and fails if
   * any label or button in it is cut short or spills out of its box in either. On the FX thread, with the dialog showing.
   */
  public static void dialog(javafx.scene.control.Dialog<?> dialog, String name) {
    javafx.scene.control.DialogPane pane = dialog.getDialogPane();
    java.util.List<String> before = java.util.List.copyOf(pane.getStylesheets());
    try {
      for (String palette : java.util.List.of(Themes.LIGHT, Themes.DARK)) {
        pane.getStylesheets().setAll(Themes.class.getResource(palette).toExternalForm(),
            Themes.class.getResource("console.css").toExternalForm());
        pane.applyCss();
        pane.layout();
        Fx.requireWhole(Fx.found(pane, Fx::collectCut), Fx.found(pane, Fx::collectClipped),
            "in the dialog " + name + " (" + palette + ")");
        write(pane.getScene(), palette.equals(Themes.LIGHT) ? name : name + "-dark");
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      pane.getStylesheets().setAll(before);
    }
  }
}
