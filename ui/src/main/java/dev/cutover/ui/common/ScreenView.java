package dev.cutover.ui.common;

import javafx.scene.Node;

/** A screen's view: builds its nodes in code, binds them through its {@link Binder}, and releases them when left. */
public abstract class ScreenView {

  protected final Binder binder = new Binder();

  public abstract Node root();

  /** Releases every binding to the model; called when the operator leaves the screen. */
  public void dispose() {
    binder.dispose();
  }

  public Binder binder() {
    return binder;
  }

  /** Whether the repair banner above this screen is shown on one line, to leave the screen its height. */
  public boolean compactBanner() {
    return false;
  }
}
