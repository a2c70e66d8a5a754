package dev.cutover.ui.plan;

import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Widgets;
import java.util.Locale;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The preflight tab: one row per check (status, name, finding, fix) and the dependents to acknowledge,
 * each with its reason once given.
 */
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
    Runnable fillDependents = () -> fillDependents(dependents, model, controller);
    binder.watchList(model.dependents(), fillDependents);
    binder.watchMap(model.reasons(), fillDependents);

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

  /**
   * One row per dependent: its name and what it reads, then "Acknowledge…" until the operator has given a
   * reason, and the reason with "Take back" once they have.
   */
  private static void fillDependents(VBox box, PreflightModel model, PreflightController controller) {
    box.getChildren().clear();
    if (model.dependents().isEmpty()) {
      return;
    }
    box.getChildren().add(Widgets.wrap(Widgets.muted("Dependents that see the replayed history: acknowledge each with "
        + "the reason that is safe, then run the preflight again. The backfill writes each reason to the audit trail, "
        + "with your name, before any hour.")));
    for (Dependent d : model.dependents()) {
      Label name = new Label(d.name() + " (reads " + d.reads() + ")");
      // A table's name is data: "pnl_alerts_mv" must not lose its first underscore to a mnemonic.
      name.setMnemonicParsing(false);
      name.setId("dependent-" + id(d.name()));
      name.getStyleClass().add("strong");
      String reason = model.reasons().get(d.name());
      if (reason == null) {
        Button acknowledge = Widgets.button("ack-" + id(d.name()), "Acknowledge…");
        acknowledge.setOnAction(e -> controller.acknowledge(d));
        box.getChildren().add(Widgets.row(10, name, acknowledge));
      } else {
        Label because = new Label("acknowledged: " + reason);
        because.setMnemonicParsing(false);
        because.setId("ack-reason-" + id(d.name()));
        Widgets.wrap(because);
        Button takeBack = Widgets.button("ack-take-back-" + id(d.name()), "Take back");
        takeBack.setOnAction(e -> controller.takeBack(d.name()));
        box.getChildren().add(Widgets.row(10, name, because, takeBack));
      }
    }
  }

  /** A dependent's name as part of a node's id: its dots as dashes, which a lookup would read as a style class. */
  static String id(String dependent) {
    return dependent.replaceAll("[^A-Za-z0-9_-]", "-");
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
