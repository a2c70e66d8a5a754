package dev.cutover.app.demo;

import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.connect.Session;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cutover demo deploy-v2 --from HOUR}: the live job also writes pnl_v2 from that hour on. */
@Command(name = "deploy-v2", mixinStandardHelpOptions = true,
    description = "Redeploy the live job with the corrected logic from a boundary hour B: it writes pnl_v2 for every "
        + "hour from B on, first catching up the hours from B that have closed. It never writes v2 before B.")
public final class DemoDeployV2Command implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @Mixin DemoOptions demo;
  @Option(names = "--from", required = true, paramLabel = "HOUR",
      description = "The boundary B: a whole UTC hour such as 2026-11-29T10:00.")
  String from;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Instant boundary = Hours.parse("from", from);
    PrintWriter out = spec.commandLine().getOut();
    try (Session session = connection.open(spec.commandLine().getErr());
        LiveJob job = LiveJob.open(session.database(), demo.world(), LiveOptions.defaults())) {
      V2Deployment deployment = job.deployV2(boundary);
      boolean running = LiveJob.isHeld(job.state(), Instant.now());
      out.printf("v2 %s from %s: the live job writes pnl_v2 for every hour from there on, catching up %d closed "
              + "hour(s) first.%n", deployment.newlyDeployed() ? "deployed" : "was already deployed",
          Hours.readable(boundary), deployment.hoursToCatchUp());
      out.println(running ? "The running live job picks this up at its next step."
          : "No live job is running: start one with 'cutover demo live'.");
      return ExitCodes.OK;
    }
  }
}
