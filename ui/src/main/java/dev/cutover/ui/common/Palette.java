package dev.cutover.ui.common;

import javafx.scene.paint.Color;

/**
 * The colours drawn on canvases (which CSS does not reach), one set per theme, matching the
 * stylesheet's palette. On the Reconcile charts each meaning has its own colour: v2 is blue, v1 grey, an expected
 * difference violet, an unexpected one red, an hour missing (a gap) magenta, one counted twice orange, the backfill
 * as an owner slate, the live writer teal.
 */
public record Palette(boolean dark, Color background, Color surface, Color border, Color text, Color muted,
    Color pending, Color running, Color written, Color emptied, Color failed, Color live, Color expected,
    Color unexpected, Color acknowledged, Color identical, Color backfillOwner, Color liveOwner, Color gap,
    Color duplicate, Color boundary, Color series1, Color series2) {

  public static final Palette LIGHT = new Palette(false, Color.web("#f4f6f8"), Color.web("#ffffff"), Color.web("#d7dce1"),
      Color.web("#1d2329"), Color.web("#5c6873"),
      Color.web("#e3e7eb"), Color.web("#f0b429"), Color.web("#2da44e"), Color.web("#8fd19e"), Color.web("#cf222e"),
      Color.web("#8250df"), Color.web("#8250df"), Color.web("#cf222e"), Color.web("#bf8700"), Color.web("#c5ccd3"),
      Color.web("#57606a"), Color.web("#0e8a8a"), Color.web("#bf3989"), Color.web("#e16f24"), Color.web("#1d2329"),
      Color.web("#8c959f"), Color.web("#1f6feb"));

  public static final Palette DARK = new Palette(true, Color.web("#15191e"), Color.web("#1e242b"), Color.web("#333c46"),
      Color.web("#e6edf3"), Color.web("#9aa7b3"),
      Color.web("#2d353e"), Color.web("#d29922"), Color.web("#3fb950"), Color.web("#2b6a3a"), Color.web("#f85149"),
      Color.web("#a371f7"), Color.web("#a371f7"), Color.web("#f85149"), Color.web("#d29922"), Color.web("#4a545e"),
      Color.web("#8b949e"), Color.web("#39c5bb"), Color.web("#db61a2"), Color.web("#f0883e"), Color.web("#e6edf3"),
      Color.web("#9aa7b3"), Color.web("#4c8dff"));
}
