package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The Shards screen's steps on the repair itself, each on every shard, all or nothing, behind the
 * operator's answer: a view-fed table's corrected view deployed, the operator's own live writer declared,
 * the repair abandoned. Each reads the shards off the FX thread first and drops a result of a repair the
 * screen no longer works on.
 */
final class ShardRepairSteps {

  private final ShardsModel model;
  private final Workspace workspace;
  private final Activity activity;
  private final Predicate<ShardedRepair> current;
  private final Runnable read;

  ShardRepairSteps(ShardsModel model, Predicate<ShardedRepair> current, Runnable read) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.current = current;
    this.read = read;
  }

  /**
   * Deploys a view-fed table's corrected view on every shard from one future B, once the operator has
   * read the statement and B: all or nothing, and the shards' lines then show B pinned on every shard.
   */
  void deployView(ShardedRepair r) {
    activity.run("plan the corrected view on every shard", p -> r.liveDeployment(), planned -> {
      if (!current.test(r)) {
        return;
      }
      var first = planned.values().iterator().next();
      if (planned.values().stream().allMatch(dev.cutover.engine.api.LiveDeployment::exists)) {
        model.deployed("The corrected view " + first.view() + " already writes every shard's v2 from B = "
            + first.boundary() + "; nothing was changed.");
        return;
      }
      if (!workspace.dialogs().confirmDeployView(first, r.spec().targetTable() + " on each of " + planned.size()
          + " shards")) {
        return;
      }
      activity.runToTheEnd("deploy the corrected view on every shard", p -> r.deployLive(Optional.of(first.boundary())),
          deployed -> {
        model.deployed("The corrected view " + first.view() + " writes every shard's v2 from B = "
            + deployed.values().iterator().next().boundary() + ", pinned on every shard; the backfill writes the "
            + "hours before B once B has closed.");
        read.run();
      }, failure -> read.run());
    });
  }

  /**
   * Declares the operator's corrected live writer (a job outside the database) deployed on every shard from
   * their one B, in the operator's words: all or nothing, refused with nothing written while any shard has no
   * B, another B or a corrected view. Each shard's repair then waits for the writer's first hour from B.
   */
  void declareLiveWriter(ShardedRepair r) {
    activity.run("read every shard's repair", p -> r.status(), status -> {
      if (!current.test(r)) {
        return;
      }
      Optional<HourPartition> b = status.values().stream().flatMap(s -> s.repair().stream())
          .filter(x -> !x.phase().ended()).flatMap(x -> x.boundary().stream()).findFirst();
      if (b.isEmpty()) {
        activity.fail("No shard has a repair with a boundary yet: the first backfill on every shard pins B, from "
            + "which the corrected live writer writes.");
        return;
      }
      TableSpec spec = r.spec();
      workspace.dialogs().declareLiveWriter(b.get(), spec.database() + "." + spec.targetTable() + " on each of "
          + status.size() + " shards").ifPresent(words ->
          activity.runToTheEnd("declare the corrected live writer on every shard", p -> r.declareLiveWriter(words),
              done -> {
                model.deployed("The corrected live writer (" + words + ") is declared deployed from B = " + b.get()
                    + " on " + done.size() + " shard(s); each shard's repair waits for its first hour from B.");
                read.run();
              }, failure -> read.run()));
    });
  }
}
