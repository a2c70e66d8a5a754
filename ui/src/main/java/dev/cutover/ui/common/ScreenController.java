package dev.cutover.ui.common;

import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The part of a screen that talks to the engine, told when its screen is shown and left so that it
 * polls only while someone looks, and asked to read again after the console reconnected to its
 * server. What it reads it writes into the screen's model, on the FX thread.
 */
public interface ScreenController {

  default void shown() {}

  default void hidden() {}

  /**
   * Reads what the screen shows from the server again, whether it is shown or not: after a reconnect
   * nothing read before may be taken as true. By default what the screen does when it is shown.
   */
  default void reread() {
    shown();
  }

  /** Whether a read of the screen runs now: after a reconnect, the screens' actions wait until none does. */
  default ObservableBooleanValue reading() {
    return new ReadOnlyBooleanWrapper(false).getReadOnlyProperty();
  }
}
