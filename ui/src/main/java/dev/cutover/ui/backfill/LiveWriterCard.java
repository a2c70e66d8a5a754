package dev.cutover.ui.backfill;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.Widgets;
import java.time.Duration;
import java.util.Optional;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The backfill screen's card of the corrected live writer: what it must do from B, where v1 and v2
 * stand, and its deployment: the corrected materialized view for a view-fed v1 (which picks and pins
 * a future B), or the demo's live job from the pinned B.
 */
final class LiveWriterCard {

  private final BackfillModel model;
  private final BackfillController controller;
  private final Binder binder;

  LiveWriterCard(BackfillModel model, BackfillController controller, Binder binder) {
    this.model = model;
    this.controller = controller;
    this.binder = binder;
  }

  VBox card() {
    Label what = Widgets.wrap(Widgets.label("live-writer-instructions"));
    Label v2 = Widgets.label("v2-edge", "strong");
    Label v1 = Widgets.label("v1-edge");
    Label status = Widgets.wrap(Widgets.label("v2-status", "muted"));
    GridPane edges = Widgets.facts(120);
    Widgets.fact(edges, "v2 newest hour", v2);
    Widgets.fact(edges, "v1 newest hour", v1);
    TableSpec spec = model.workspace().spec();
    // The boundary comes from the shown run or the plan, which may arrive after the live edges: all three redraw.
    // Nothing is left to deploy once v2 holds an hour from B, or once the demo's writer was deployed (from anywhere).
    javafx.beans.property.BooleanProperty deployed = new javafx.beans.property.SimpleBooleanProperty();
    Runnable update = () -> {
      LiveStatus live = model.liveProperty().get();
      Optional<HourPartition> demoFrom = model.demoDeployedFromProperty().get();
      what.setText(instructions(model, spec));
      v2.setText(live == null ? "—" : live.targetEdge().map(h -> h + " UTC").orElse("none"));
      v1.setText(live == null ? "—" : live.liveEdge().map(h -> h + " UTC").orElse("none"));
      status.setText(live == null ? "" : takeOver(live, model.boundary(), demoFrom,
          model.declaredWriterProperty().getValue()));
      deployed.set(demoFrom.isPresent() || live != null && writesFromB(live, model.boundary()));
    };
    binder.watch(model.progress().recordProperty(), r -> update.run());
    binder.onChange(model.workspace().planProperty(), p -> update.run());
    binder.watch(model.liveProperty(), live -> update.run());
    binder.onChange(model.demoDeployedFromProperty(), from -> update.run());
    binder.onChange(model.repairedByViewProperty(), byView -> update.run());
    binder.onChange(model.declaredWriterProperty(), declared -> update.run());
    binder.onChange(model.workspace().repair().statusProperty(), read -> update.run());
    VBox card = Widgets.card("Corrected live writer", what, edges, status,
        Widgets.safety("live-writer-safety", Safety.LIVE_WRITER_BRIEF, Safety.LIVE_WRITER));
    if (spec.correctedWriter().byViews()) {
      Button view = Widgets.button("deploy-view", "Deploy corrected _view…");
      view.setOnAction(e -> controller.deployView());
      binder.bind(view.disableProperty(), model.writer().runningProperty().or(model.repairedByViewProperty()));
      card.getChildren().addAll(view, Widgets.safety("deploy-view-safety", Safety.DEPLOY_LIVE_BRIEF,
          Safety.DEPLOY_LIVE));
    }
    if (model.workspace().demo().isEmpty() && !spec.correctedWriter().byViews()) {
      // Your own writer is deployed outside Cutover; declaring it lets the repair wait for it rather than ask for it.
      Button declare = Widgets.button("declare-live-writer", "Declare _writer deployed…");
      declare.setOnAction(e -> controller.declareLiveWriter());
      binder.bind(declare.disableProperty(), model.writer().runningProperty().or(deployed)
          .or(javafx.beans.binding.Bindings.createBooleanBinding(() -> model.openBoundaryProperty().getValue()
              .isEmpty(), model.openBoundaryProperty())));
      card.getChildren().addAll(declare, Widgets.safety("declare-live-safety", Safety.DECLARE_LIVE_BRIEF,
          Safety.DECLARE_LIVE),
          Widgets.activityBar("writer-activity", binder, model.writer()),
          Widgets.errorLabel("writer-error", binder, model.writer().errorProperty()));
    }
    if (model.workspace().demo().isPresent()) {
      // The demo's live job runs only once the operator starts it here; the label says whether it runs.
      DemoLive demoLive = model.demoLive();
      Label liveState = Widgets.wrap(Widgets.label("demo-live-state", "muted"));
      binder.bind(liveState.textProperty(), demoLive.wordsProperty());
      liveState.setMaxWidth(Double.MAX_VALUE);
      HBox.setHgrow(liveState, Priority.ALWAYS);
      Button live = Widgets.button("demo-live-toggle", "Start live _job");
      binder.bind(live.textProperty(), demoLive.runningProperty().map(r -> r ? "Stop live _job" : "Start live _job"));
      live.setOnAction(e -> demoLive.toggle());
      binder.bind(live.disableProperty(), demoLive.activity().runningProperty());
      HBox liveRow = new HBox(10, live, liveState);
      liveRow.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
      Button deploy = Widgets.button("deploy-live-writer", "Deploy corrected live _writer from B");
      deploy.setOnAction(e -> controller.deployLiveWriter());
      binder.bind(deploy.disableProperty(), model.writer().runningProperty().or(deployed));
      // A view-fed world's corrected writer is the view above; its live job only inserts trades.
      deploy.setVisible(!spec.correctedWriter().byViews());
      deploy.setManaged(!spec.correctedWriter().byViews());
      card.getChildren().addAll(liveRow, Widgets.activityBar("demo-live-activity", binder,
          demoLive.activity()), Widgets.errorLabel("demo-live-error", binder, demoLive.activity().errorProperty()),
          deploy, Widgets.activityBar("writer-activity", binder, model.writer()),
          Widgets.errorLabel("writer-error", binder, model.writer().errorProperty()));
    }
    return card;
  }

  static String instructions(BackfillModel model, TableSpec spec) {
    Optional<HourPartition> b = model.boundary();
    if (spec.correctedWriter().byViews()) {
      var status = model.workspace().repair().statusProperty().get();
      Optional<HourPartition> pinned = status == null ? Optional.empty()
          : status.repair().filter(r -> !r.liveViews().isEmpty()).flatMap(r -> r.boundary());
      // What the repair's snapshot says of the view decides, as it decides the next step beside this card.
      if (status != null && status.next().kind() == dev.cutover.engine.api.RepairStatus.Kind.ABANDON
          && pinned.isPresent()) {
        return "The corrected view " + spec.correctedWriter().named().orElseThrow() + " that the repair deployed does not exist any more (a "
            + "rollback drops it): nothing writes " + spec.targetTable() + " live from B = " + pinned.get() + " UTC. "
            + "Abandon the repair, then deploy the view again with a boundary of its own.";
      }
      return pinned.isEmpty() || !model.repairedByViewProperty().get()
          ? spec.liveTable() + " is fed by a materialized view, which sees only inserts made after it exists. Deploy "
              + "the corrected view " + spec.correctedWriter().named().orElseThrow() + ": it picks B in the future (the next whole hour after "
              + "the newest event plus the safety margin) and pins it; the backfill then waits until B has closed."
          : "The corrected view " + spec.correctedWriter().named().orElseThrow() + " writes " + spec.targetTable() + " from B = "
              + pinned.get() + " UTC on; the backfill writes the hours before B once the live edge is "
              + spec.safetyMargin().toHours() + " h past B.";
    }
    if (b.isEmpty()) {
      return "Once there is a plan, the corrected live writer starts from its boundary B.";
    }
    if (model.workspace().demo().isPresent()) {
      return model.workspace().demo().get().describe() + " B is " + b.get() + " UTC.";
    }
    return "Start the corrected live job now, writing " + spec.database() + "." + spec.targetTable() + " for every "
        + "hour from B = " + b.get() + " UTC on. It must not write any hour before B (the backfill owns those), and "
        + "the old job keeps writing " + spec.liveTable() + " until the cutover. Then declare it here: the repair "
        + "waits for its first hour.";
  }

  /** Whether v2 holds an hour at or after {@code boundary}: the corrected live writer has started. */
  private static boolean writesFromB(LiveStatus live, Optional<HourPartition> boundary) {
    return live.targetEdge().isPresent() && boundary.isPresent() && !live.targetEdge().get().isBefore(boundary.get());
  }

  /**
   * Where the corrected live writer stands; {@code demoFrom}: where the demo's writer was deployed from, if it
   * was; {@code declared}: the operator's declaration of their writer, if any.
   */
  static String takeOver(LiveStatus live, Optional<HourPartition> shown, Optional<HourPartition> demoFrom,
      Optional<LiveWriterNote> declared) {
    // Before a plan or a run says B, the demo's deployment does.
    Optional<HourPartition> boundary = shown.or(() -> demoFrom);
    if (demoFrom.isPresent() && boundary.isPresent() && !demoFrom.get().equals(boundary.get())) {
      return "The demo's corrected live writer was deployed from " + demoFrom.get() + " UTC, not from this B; its "
          + "boundary never moves: reset the demo world (./cutover demo seed) to deploy it from another.";
    }
    if (!writesFromB(live, boundary)) {
      if (demoFrom.isPresent()) {
        return "Deployed from B: no hour at or after B in v2 yet; the live job writes them, catching up first, at its "
            + "next step once it runs.";
      }
      long v1FromB = boundary.flatMap(b -> live.liveEdge().map(v1 -> Duration.between(b.start(), v1.start())
          .toHours() + 1)).orElse(0L);
      return declared.map(d -> "Declared deployed (" + d.writer() + ") by " + d.actor() + "@" + d.host() + " at "
          + Formats.clock(d.at()) + ": no hour at or after B in v2 yet" + (v1FromB > 0 ? ", while v1 has written "
              + Formats.hours(v1FromB) + " from B. If its first hour does not come, check that it runs and starts at "
              + "B." : ". Its first hour is B, once B has closed."))
          .orElse("No hour at or after B in v2 yet: the corrected live writer has not started.");
    }
    HourPartition v2 = live.targetEdge().get();
    long behind = live.liveEdge().map(v1 -> Duration.between(v2.start(), v1.start()).toHours()).orElse(0L);
    return behind <= 0 ? "The corrected live writer has caught up with v1." : "The corrected live writer is "
        + Formats.hours(behind) + " behind v1.";
  }
}
