package dev.cutover.ui;

import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.common.ScreenView;
import java.util.function.Supplier;

/**
 * One entry of the sidebar: its id, its label (with the Alt mnemonic underscored), its controller,
 * which lives as long as the console, and how to build its view, which lives while the screen is shown.
 */
public record Screen(String id, String label, ScreenController controller, Supplier<ScreenView> view, boolean needsSpec) {}
