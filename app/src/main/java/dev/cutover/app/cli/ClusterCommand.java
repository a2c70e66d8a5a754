package dev.cutover.app.cli;

import picocli.CommandLine.Command;

/**
 * {@code ./cutover cluster STEP}: an alias, kept for this release, of the plain verbs, which run on every shard
 * when their spec names a cluster (docs/CLUSTER.md). Each step is the plain verb itself, with its output and
 * document; the alias adds a note on stderr.
 */
@Command(name = ClusterCommand.NAME, mixinStandardHelpOptions = true,
    subcommands = {PlanCommand.class, BackfillCommand.class, ReconcileCommand.class, AckCommand.class,
        SwapCommands.CutoverCommand.class, SwapCommands.RollbackCommand.class, StatusCommand.class,
        DeployLiveCommand.class, DeclareLiveCommand.class, AbandonCommand.class},
    description = {"An alias, kept for this release, of the plain verbs on a spec that names a cluster: "
        + "./cutover backfill --spec SHARDED.yaml runs on every shard, as ./cutover cluster backfill does "
        + "(docs/CLUSTER.md)."})
public final class ClusterCommand {

  static final String NAME = "cluster";

  private ClusterCommand() {}
}
