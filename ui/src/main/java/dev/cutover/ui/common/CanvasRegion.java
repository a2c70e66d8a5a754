package dev.cutover.ui.common;

import javafx.scene.canvas.Canvas;
import javafx.scene.layout.Region;

/** A region that holds one canvas of its own size and redraws it whenever that size changes. */
public abstract class CanvasRegion extends Region {

  protected final Canvas canvas = new Canvas();

  protected CanvasRegion() {
    getChildren().add(canvas);
  }

  @Override
  protected void layoutChildren() {
    double w = snapSizeX(getWidth());
    double h = snapSizeY(getHeight());
    if (canvas.getWidth() != w || canvas.getHeight() != h) {
      canvas.setWidth(w);
      canvas.setHeight(h);
      redraw();
    }
  }

  /** Paints the whole canvas; called on the FX thread. */
  public abstract void redraw();
}
