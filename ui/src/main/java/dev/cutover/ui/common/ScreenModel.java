package dev.cutover.ui.common;

/** A screen's model, told when its screen is shown and left so that it polls only while someone looks. */
public interface ScreenModel {

  default void shown() {}

  default void hidden() {}
}
