package dev.cutover.ui.cutover;

import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.connection.ServerLink;
import java.time.Instant;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableBooleanValue;

/**
 * What the cutover screen shows, on the FX thread: the gate of the step consumers can take now (the
 * cutover gate while they read v1, the rollback gate while they read v2) and when it was judged, the
 * one statement that switches consumers, the retention of v1, and what the last swap, drop and
 * clean-up did. While the server does not answer the gate is unknown, never the last one judged: an
 * open gate seen before the server was lost says nothing about the data now. {@link
 * CutoverController} judges the gate, takes the steps and writes here.
 */
public final class CutoverModel {

  private final Workspace workspace;
  private final Activity activity;
  private final ObjectProperty<Gate> gate = new SimpleObjectProperty<>();
  private final StringProperty statement = new SimpleStringProperty("");
  private final ObjectProperty<Retention> retention = new SimpleObjectProperty<>();
  private final ObjectProperty<Repair> repair = new SimpleObjectProperty<>();
  private final ObjectProperty<SwapResult> lastSwap = new SimpleObjectProperty<>();
  private final StringProperty cleanup = new SimpleStringProperty("");
  private final StringProperty dropResult = new SimpleStringProperty("");
  private final ObjectProperty<Instant> judgedAt = new SimpleObjectProperty<>();
  private final StringProperty unknown = new SimpleStringProperty("");
  private final ObjectProperty<dev.cutover.engine.api.Armed> armed = new SimpleObjectProperty<>();
  private final StringProperty armLine = new SimpleStringProperty("");
  private final ObservableList<String> nodeLines = FXCollections.observableArrayList();
  private final ObservableList<String> swapLines = FXCollections.observableArrayList();

  public CutoverModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    workspace.specProperty().addListener((o, was, is) -> {
      gate.set(null);
      retention.set(null);
      repair.set(null);
      lastSwap.set(null);
      cleanup.set("");
      dropResult.set("");
      judgedAt.set(null);
      nodeLines.clear();
      swapLines.clear();
    });
    workspace.linkProperty().subscribe(this::linkChanged);
  }

  /**
   * A lost server makes the gate unknown at once; the controller judges it again after the reconnect
   * (see {@link CutoverController#reread()}).
   */
  private void linkChanged(ServerLink link) {
    if (link.lost()) {
      gate.set(null);
      judgedAt.set(null);
      unknown.set("Gate unknown: the server does not answer (since " + Formats.clock(link.since()) + "). It is "
          + "judged again once Cutover has reconnected.");
    } else {
      unknown.set("");
    }
  }

  /** A gate judged at {@code at}: the repair and retention first, as the headline reads them when the gate changes. */
  void judged(Gate judged, Retention read, Repair current, Instant at) {
    repair.set(current);
    retention.set(read);
    judgedAt.set(at);
    gate.set(judged);
  }

  /** Each node's version read and gate, judged at {@code at}: on a sharded table only. */
  void nodes(List<CutoverSteps.Node> nodes, Instant at) {
    nodeLines.setAll(NodeWords.gates(nodes, at));
  }

  /** A switch of every node begins: each node's line follows as it switches. */
  void swapStarted(String action, int nodes) {
    swapLines.setAll(NodeWords.started(action, nodes));
  }

  void switched(ShardRef node, SwapResult result) {
    swapLines.add(NodeWords.switched(node, result));
  }

  /** What the switch of every node, or the finish of one left unfinished, came to. */
  void nodeNote(String sentence) {
    swapLines.add(sentence);
  }

  void retention(Retention read) {
    retention.set(read);
  }

  void statement(String text) {
    statement.set(text);
  }

  /** A swap this console made: the gate judged before it no longer holds, and none is shown until the next is read. */
  void swapped(SwapResult result) {
    lastSwap.set(result);
    gate.set(null);
    judgedAt.set(null);
  }

  void cleanedUp(String sentence) {
    cleanup.set(sentence);
  }

  void dropped(String sentence) {
    dropResult.set(sentence);
  }

  public Activity activity() {
    return activity;
  }

  /** The armed cutover as last read (this console's or another process's), or null while none is armed. */
  public ReadOnlyObjectProperty<dev.cutover.engine.api.Armed> armedProperty() {
    return armed;
  }

  /** What the armed cutover did last, or why it waits, in one sentence; empty when nothing was armed. */
  public ReadOnlyStringProperty armLineProperty() {
    return armLine;
  }

  void armed(dev.cutover.engine.api.Armed a, String line) {
    armed.set(a);
    armLine.set(line);
  }

  public ReadOnlyObjectProperty<Gate> gateProperty() {
    return gate;
  }

  /** When the gate shown was judged; null while none is shown. */
  public ReadOnlyObjectProperty<Instant> judgedAtProperty() {
    return judgedAt;
  }

  /** Why the gate is unknown ("Gate unknown: the server does not answer …"), or empty while it is known. */
  public ReadOnlyStringProperty unknownProperty() {
    return unknown;
  }

  /** Whether the server answers and the screen has read from it since the last reconnect: steps wait for it. */
  public ObservableBooleanValue onlineProperty() {
    return workspace.online();
  }

  /**
   * On a sharded table, each node's line: which version it reads and its gate when last judged, each unmet
   * condition under it; empty on one server.
   */
  public ObservableList<String> nodeLines() {
    return nodeLines;
  }

  /**
   * On a sharded table, the last switch of every node from this console, each node's line as it switched, and
   * what it came to; or what finishing a switch left unfinished did.
   */
  public ObservableList<String> swapLines() {
    return swapLines;
  }

  /** Whether the loaded spec's table is sharded over a cluster: the screen then shows each node. */
  public ObservableBooleanValue clusterProperty() {
    return workspace.clusterSpec();
  }

  public ReadOnlyStringProperty statementProperty() {
    return statement;
  }

  public ReadOnlyObjectProperty<Retention> retentionProperty() {
    return retention;
  }

  /** The repair as the gate was read, for what the headline says after a rollback. */
  public ReadOnlyObjectProperty<Repair> repairProperty() {
    return repair;
  }

  public ReadOnlyObjectProperty<SwapResult> lastSwapProperty() {
    return lastSwap;
  }

  public ReadOnlyStringProperty cleanupProperty() {
    return cleanup;
  }

  /** What dropping v1 did, once it did. */
  public ReadOnlyStringProperty dropResultProperty() {
    return dropResult;
  }

  public TableSpec spec() {
    return workspace.spec();
  }

  public Workspace workspace() {
    return workspace;
  }
}
