package dev.cutover.ui.plan;

import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Widgets;
import java.util.Locale;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The preflight tab: one row per check (status, name, finding, fix) and the dependents to acknowledge. */
final class PreflightPane {

  private final VBox root;

  PreflightPane(PreflightModel model, PreflightController controller, Binder binder) {
    Button run = Widgets.button("preflight-run", "Run prefli_ght");
    run.setOnAction(e -> controller.run());
    binder.bind(run.disableProperty(), model.activity().runningProperty());
    Label summary = Widgets.label("preflight-summary", "summary-text");
    Widgets.wrap(summary);
    binder.bind(summary.textProperty(), model.summaryProperty());

    GridPane grid = new GridPane();
    grid.setId("preflight-checks");
    grid.setHgap(14);
    grid.setVgap(10);
    ColumnConstraints status = new ColumnConstraints(70);
    ColumnConstraints name = new ColumnConstraints(180);
    ColumnConstraints finding = new ColumnConstraints();
    finding.setHgrow(Priority.ALWAYS);
    ColumnConstraints fix = new ColumnConstraints(280);
    grid.getColumnConstraints().addAll(status, name, finding, fix);
    binder.watchList(model.checks(), () -> fill(grid, model));

    VBox dependents = new VBox(6);
    dependents.setId("preflight-dependents");
    binder.watchList(model.dependents(), () -> {
      dependents.getChildren().clear();
      if (!model.dependents().isEmpty()) {
        dependents.getChildren().add(Widgets.muted("Reviewed dependents (acknowledge each, then run the preflight "
            + "again):"));
      }
      for (dev.cutover.engine.api.PreflightReport.Dependent d : model.dependents()) {
        CheckBox box = new CheckBox(d.name() + " (reads " + d.reads() + ")");
        // A table's name is data: "pnl_alerts_mv" must not lose its first underscore to a mnemonic.
        box.setMnemonicParsing(false);
        box.setId("ack-" + d.name());
        binder.bindBidirectional(box.selectedProperty(), model.acknowledged(d.name()));
        dependents.getChildren().add(box);
      }
    });

    ScrollPane scroll = new ScrollPane(grid);
    scroll.setFitToWidth(true);
    scroll.getStyleClass().add("plain-scroll");
    VBox.setVgrow(scroll, Priority.ALWAYS);
    VBox card = Widgets.card("Preflight", Widgets.row(12, run, summary),
        Widgets.safety("preflight-safety", dev.cutover.engine.api.Safety.PREFLIGHT),
        Widgets.activityBar("preflight-activity", binder, model.activity()),
        Widgets.errorLabel("preflight-error", binder, model.activity().errorProperty()), scroll, dependents);
    VBox.setVgrow(card, Priority.ALWAYS);
    root = new VBox(card);
    root.getStyleClass().add("tab-body");
  }

  private static void fill(GridPane grid, PreflightModel model) {
    grid.getChildren().clear();
    if (model.checks().isEmpty()) {
      return;
    }
    int row = 0;
    grid.addRow(row++, Widgets.muted("Status"), Widgets.muted("Check"), Widgets.muted("Finding"), Widgets.muted("Fix"));
    for (Check c : model.checks()) {
      Label status = new Label(c.status().name());
      status.getStyleClass().addAll("status-pill", "status-" + c.status().name().toLowerCase(Locale.ROOT));
      status.setId("check-status-" + c.name().replace(' ', '-'));
      Label name = new Label(c.name());
      name.getStyleClass().add("strong");
      Label finding = new Label(c.finding());
      Widgets.wrap(finding);
      Label fix = new Label(c.fix().isEmpty() ? "—" : c.fix());
      Widgets.wrap(fix);
      fix.getStyleClass().add("muted");
      for (Node n : new Node[] {status, name, finding, fix}) {
        GridPane.setValignment(n, VPos.TOP);
      }
      grid.addRow(row++, status, name, finding, fix);
    }
  }

  Node root() {
    return root;
  }
}
