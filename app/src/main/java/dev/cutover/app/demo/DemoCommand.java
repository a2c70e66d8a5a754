package dev.cutover.app.demo;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cutover demo}: builds and runs the demo world, a six-month hourly PnL table with a real bug
 * and a live job that keeps writing while the operator repairs its history.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {
        "The demo world: six months of trades, marks and FX rates in ClickHouse, the hourly PnL table pnl_v1 "
            + "computed from them with a real bug (fees added instead of subtracted), and a live job that keeps "
            + "writing it.",
        "",
        "Start with 'cutover demo seed', then 'cutover demo live' in a terminal of its own."},
    subcommands = {DemoSeedCommand.class, DemoStatusCommand.class, DemoIncidentCommand.class, DemoLiveCommand.class,
        DemoDeployV2Command.class,
        DemoResetCommand.class, DemoExportSpecCommand.class, CommandLine.HelpCommand.class})
public final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return dev.cutover.app.cli.ExitCodes.OK;
  }
}
