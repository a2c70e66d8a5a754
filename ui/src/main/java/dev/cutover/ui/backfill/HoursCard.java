package dev.cutover.ui.backfill;

import dev.cutover.ui.backfill.HourStates.Cell;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.common.Widgets;
import java.util.List;
import java.util.Locale;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The hours of a run as a card: beside its title, what the hour under the pointer (or the keyboard's cursor) holds;
 * a legend that counts each state, and the grid below them. Bound through the view's binder.
 */
public final class HoursCard {

  private HoursCard() {}

  /** The card of {@code grid} over {@code states}; {@code above} goes between the title and the legend. */
  public static VBox of(String title, HourGrid grid, HourStates states, Binder binder,
      ObservableValue<Palette> palette, Node... above) {
    binder.watch(palette, grid::setPalette);
    binder.onChange(states.revisionProperty(), r -> grid.redraw());
    VBox.setVgrow(grid, Priority.ALWAYS);
    FlowPane legend = new FlowPane(16, 6);
    legend.setId("hour-legend");
    for (Cell c : List.of(Cell.PENDING, Cell.RUNNING, Cell.WRITTEN, Cell.EMPTIED, Cell.CARRIED, Cell.FAILED,
        Cell.LIVE)) {
      Region swatch = new Region();
      swatch.getStyleClass().add("swatch");
      binder.watch(palette, pal -> swatch.setStyle("-fx-background-color: " + web(grid.colour(c)) + ";"));
      Label count = Widgets.label("legend-" + c.name().toLowerCase(Locale.ROOT));
      binder.watch(states.revisionProperty(), r -> count.setText(capital(c.words()) + " " + Formats.count(
          states.count(c))));
      legend.getChildren().add(Widgets.row(6, swatch, count));
    }
    Label hover = Widgets.label("hour-hover", "muted");
    String idle = "Point at an hour, or focus the grid and use the arrow keys.";
    hover.setText(idle);
    grid.setOnHover(text -> hover.setText(text.isEmpty() ? idle : text));
    hover.setMinWidth(Region.USE_PREF_SIZE);
    Label heading = new Label(title);
    heading.getStyleClass().add("card-title");
    heading.setMinWidth(Region.USE_PREF_SIZE);
    Node[] content = new Node[above.length + 2];
    System.arraycopy(above, 0, content, 0, above.length);
    // The pointed hour on the title's line, the legend below it, then the grid: a line of their own took the height
    // that at 1280 × 800 keeps the grid's bottom rows on screen.
    content[above.length] = legend;
    content[above.length + 1] = grid;
    return Widgets.card(Widgets.row(16, heading, Widgets.spacer(), hover), content);
  }

  private static String capital(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static String web(javafx.scene.paint.Color c) {
    return String.format(Locale.ROOT, "#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
        Math.round(c.getBlue() * 255));
  }
}
