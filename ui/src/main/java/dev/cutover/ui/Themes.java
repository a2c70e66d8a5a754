package dev.cutover.ui;

import javafx.scene.Scene;

/** Light and dark themes: one base stylesheet plus a palette each. */
public final class Themes {

  public static final String LIGHT = "light.css";
  public static final String DARK = "dark.css";

  private Themes() {}

  public static void apply(Scene scene, String palette) {
    if (scene == null) {
      return;
    }
    scene.getStylesheets().setAll(
        Themes.class.getResource(palette).toExternalForm(),
        Themes.class.getResource("console.css").toExternalForm());
  }
}
