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
}
