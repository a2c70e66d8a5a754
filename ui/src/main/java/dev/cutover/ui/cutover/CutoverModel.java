package dev.cutover.ui.cutover;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenModel;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The cutover screen: the gate, the one statement that switches consumers, the cutover and the
 * rollback (each confirmed by typing the view's name), the retention of v1 and the clean-up.
 */
public final class CutoverModel implements ScreenModel {

  private final Workspace workspace;
  private final Activity activity;
  private final ObjectProperty<Gate> gate = new SimpleObjectProperty<>();
  private final StringProperty statement = new SimpleStringProperty("");
  private final ObjectProperty<Retention> retention = new SimpleObjectProperty<>();
  private final ObjectProperty<SwapResult> lastSwap = new SimpleObjectProperty<>();
  private final StringProperty cleanup = new SimpleStringProperty("");

  public CutoverModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    workspace.specProperty().addListener((o, was, is) -> {
      gate.set(null);
      retention.set(null);
      lastSwap.set(null);
      cleanup.set("");
    });
  }

  @Override
  public void shown() {
    refresh();
  }

  private record State(Gate gate, String statement, Retention retention) {}

  /** Reads the gate, the statement and the retention horizon. */
  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    activity.run("check the cutover gate", p -> new State(engine.gate(spec), engine.cutoverStatement(spec),
        engine.retention(spec)), s -> {
          gate.set(s.gate());
          statement.set(s.statement());
          retention.set(s.retention());
        });
  }

  /** Switches consumers to v2 once the operator typed the view's name. */
  public void cutover() {
    TableSpec spec = workspace.spec();
    Optional<String> typed = workspace.dialogs().confirmCutover(new SwapRequest("cutover", statement.get(),
        spec.consumerView().name(), Gate.Version.V1, spec.liveTable().name(), Gate.Version.V2,
        spec.targetTable().name()));
    typed.ifPresent(t -> swap("cut over", engine -> engine.cutover(spec, t)));
  }

  /** Switches consumers back to v1 once the operator typed the view's name. */
  public void rollback() {
    TableSpec spec = workspace.spec();
    Optional<String> typed = workspace.dialogs().confirmRollback(new SwapRequest("rollback", statement.get(),
        spec.consumerView().name(), Gate.Version.V2, spec.targetTable().name(), Gate.Version.V1,
        spec.liveTable().name()));
    typed.ifPresent(t -> swap("roll back", engine -> engine.rollback(spec, t)));
  }

  private void swap(String doing, java.util.function.Function<Engine, SwapResult> action) {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    activity.run(doing + " " + spec.consumerView(), p -> {
      SwapResult result = action.apply(engine);
      return new Swapped(result, new State(engine.gate(spec), engine.cutoverStatement(spec), engine.retention(spec)));
    }, s -> {
      lastSwap.set(s.result());
      gate.set(s.state().gate());
      retention.set(s.state().retention());
    });
  }

  private record Swapped(SwapResult result, State state) {}

  /** Drops the staging and sample tables left by runs, once the operator confirmed. */
  public void cleanup() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (workspace.dialogs().confirmCleanup(spec.database() + "." + spec.targetTable())) {
      activity.run("clean up staging tables", p -> engine.cleanup(spec), dropped -> cleanup.set(words(dropped)));
    }
  }

  static String words(List<String> dropped) {
    return dropped.isEmpty() ? "Nothing to drop: no staging or sample table is left."
        : "Dropped " + dropped.size() + " table(s): " + String.join(", ", dropped) + ".";
  }

  public Activity activity() {
    return activity;
  }

  public ReadOnlyObjectProperty<Gate> gateProperty() {
    return gate;
  }

  public ReadOnlyStringProperty statementProperty() {
    return statement;
  }

  public ReadOnlyObjectProperty<Retention> retentionProperty() {
    return retention;
  }

  public ReadOnlyObjectProperty<SwapResult> lastSwapProperty() {
    return lastSwap;
  }

  public ReadOnlyStringProperty cleanupProperty() {
    return cleanup;
  }

  public TableSpec spec() {
    return workspace.spec();
  }
}
