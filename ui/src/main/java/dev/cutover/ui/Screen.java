package dev.cutover.ui;

import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.common.ScreenView;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.beans.value.ObservableBooleanValue;

/**
 * One entry of the sidebar: its id, its label (with the Alt mnemonic underscored), its controller,
 * which lives as long as the console, and how to build its view, which lives while the screen is shown.
 *
 * @param needsSpec whether the screen shows data read with a spec: it opens only once the console is
 *     ready, and is greyed while what it shows may no longer hold
 * @param available when the screen opens, if not when the console is ready for one server's repair
 * @param banner whether the repair banner of one server's repair stands above it
 */
public record Screen(String id, String label, ScreenController controller, Supplier<ScreenView> view, boolean needsSpec,
    Optional<ObservableBooleanValue> available, boolean banner) {

  /** A screen of one server's repair (with {@code needsSpec}) or one that needs none. */
  public Screen(String id, String label, ScreenController controller, Supplier<ScreenView> view, boolean needsSpec) {
    this(id, label, controller, view, needsSpec, Optional.empty(), needsSpec);
  }
}
