package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOptions;
import dev.cutover.app.output.ProgressOutput;
import dev.cutover.app.output.Text;
import dev.cutover.app.output.TextTable;
import dev.cutover.app.output.TextTable.Align;
import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * cutover and rollback: the same EXCHANGE TABLES, each behind its own gate, confirmed by typing the
 * consumer view's name. A closed gate exits 6, with --check or without. A swap whose check could not
 * complete (the server went away after the exchange) exits 0 with a warning: consumers were switched.
 */
public final class SwapCommands {

  private SwapCommands() {}

  abstract static class Swap extends EngineCommand {
    @Mixin SpecFile specFile;
    @Mixin ProgressOptions progressOptions;

    @Option(names = "--confirm", paramLabel = "VIEW", description = "The consumer view's name, typed to confirm.")
    String confirm;

    @Option(names = "--check", description = "Only show the gate, judged from the data now; change nothing.")
    boolean checkOnly;

    /** The version this step switches consumers to: its gate is judged toward it. */
    abstract Gate.Version toward();

    /**
     * The switch on every node (one server's, or all or nothing over every node of a cluster); {@code switched}
     * hears each node of a cluster once it switched and was verified.
     */
    abstract SwapResult swap(CutoverSteps steps, String confirmation, Progress progress,
        BiConsumer<ShardRef, SwapResult> switched);

    /** A form of the step other than the switch itself (the cutover's arm and disarm), or null for the switch. */
    Integer other(CutoverSteps steps, TableSpec spec) throws Exception {
      return null;
    }

    @Override
    int run(Session session, Engine engine) throws Exception {
      TableSpec spec = specFile.loadAny(session, engine);
      return onRepair(engine, spec, (repair, finished) -> {
        Integer otherForm = other(repair.cutovers(), spec);
        if (otherForm != null) {
          return otherForm;
        }
        return checkOnly ? check(spec, repair.cutovers()) : switched(spec, repair.cutovers());
      });
    }

    /**
     * The gate of this step judged now, as one over every node (each node's own below it on a cluster); exit 6
     * while it is closed.
     */
    private int check(TableSpec spec, CutoverSteps steps) {
      CutoverSteps.Judged judged = steps.judge(toward());
      Gate gate = judged.gate();
      List<String> lines = new ArrayList<>();
      lines.add("The " + gate.step() + " gate is " + (gate.open() ? "open" : "closed") + (judged.nodes().isEmpty()
          ? "" : " on " + steps.where()) + ". Consumers read " + spec.consumerView() + " -> " + reads(gate, spec)
          + ". Statement: " + steps.statement());
      TextTable t = new TextTable("  ", Align.LEFT, Align.LEFT);
      gate.conditions().forEach(c -> t.row((c.met() ? "[x] " : "[ ] ") + c.name(), c.detail()));
      lines.addAll(t.lines());
      judged.nodes().forEach(n -> lines.add(n.node() + ": consumers read " + n.reads() + ", gate " + (n.gate().open()
          ? "open" : "closed: " + String.join("; ", n.gate().unmet().stream().map(c -> c.name() + ": " + c.detail())
          .toList()))));
      print(SwapDocuments.GateDocument.of(command.name(), gate, steps.statement()), lines);
      return gate.open() ? ExitCodes.OK : ExitCodes.BLOCKED;
    }

    /** The switch itself: one server's, or every node's all or nothing, each node said on stderr as it switches. */
    private int switched(TableSpec spec, CutoverSteps steps) {
      SwapResult result;
      try (ProgressOutput progress = progressOptions.open(command.name(), err())) {
        result = swap(steps, confirm, new StepProgress(progress, command.name().substring(0, 1)
            .toUpperCase(java.util.Locale.ROOT) + command.name().substring(1)), (node, r) -> {
              err().println(node + ": " + r.before() + " -> " + r.after() + "; " + r.verification());
              err().flush();
            });
      }
      List<String> lines = List.of(result.action() + (steps.nodes() > 1 ? " on " + steps.where() : "") + ": "
          + result.before() + " -> " + result.after() + " in " + Text.duration(result.took()) + " at "
          + Text.time(result.at()) + "; " + result.verification());
      print(SwapDocuments.SwapDocument.of(command.name(), result), lines);
      return switch (result.check()) {
        case VERIFIED -> ExitCodes.OK;
        // Consumers were switched: that is the command's outcome, and a script must not take it for a failure and
        // run it again. What is missing is the proof, which the warning and the JSON's verified say.
        case INCOMPLETE -> {
          err().println("warning: the " + command.name() + " switched consumers of " + spec.consumerView() + " to "
              + (result.after() == Gate.Version.V2 ? spec.targetTable() : spec.liveTable()) + ", but its "
              + "check could not complete (see the line above); run ./cutover status --spec " + specFile.shown()
              + " once the server answers to see which version consumers read.");
          yield ExitCodes.OK;
        }
        case DIFFERS -> ExitCodes.QUERY;
      };
    }

    private static String reads(Gate gate, TableSpec spec) {
      return switch (gate.current()) {
        case V1 -> spec.liveTable().name();
        case V2 -> spec.targetTable().name();
        case UNKNOWN -> "unknown";
      };
    }
  }

  @Command(name = "cutover", mixinStandardHelpOptions = true,
      description = {"Switch consumers to v2 in one EXCHANGE TABLES, if the cutover gate is open; --check shows the "
          + "gate. Exit 6 when the gate is closed, 8 when another process holds the repair.", Safety.CUTOVER})
  public static final class CutoverCommand extends Swap {
    @Option(names = "--arm", description = "Arm the cutover instead: consumers switch by themselves the first time the "
        + "gate opens within --window; this command judges the gate every --every until then, and Ctrl-C disarms it. "
        + "Exit 0 once switched, 6 when the window ends first or another process disarms it.")
    boolean arm;

    @Option(names = "--window", paramLabel = "DURATION", description = "How long an armed cutover may switch: 30m, "
        + "2h, 1d (from 1 minute to 7 days).")
    String window;

    @Option(names = "--every", paramLabel = "DURATION", defaultValue = "10s", description = "How often an armed "
        + "cutover judges the gate (default: ${DEFAULT-VALUE}).")
    String every;

    @Option(names = "--disarm", description = "Disarm the armed cutover of this repair; nothing is switched.")
    boolean disarm;

    @Override
    void checkOptions() {
      if (disarm && checkOnly) {
        throw new dev.cutover.engine.api.InvalidInputException("disarm", "--check shows the gate and changes nothing; "
            + "leave it out to disarm the cutover.");
      }
      if (arm && disarm) {
        throw new dev.cutover.engine.api.InvalidInputException("arm", "--arm and --disarm ask for opposite things; give "
            + "one of them.");
      }
      if (arm && (window == null || checkOnly)) {
        throw new dev.cutover.engine.api.InvalidInputException("window", checkOnly ? "--check shows the gate and "
            + "changes nothing; leave it out to arm the cutover." : "--arm needs --window, how long the cutover may "
            + "switch by itself: --window 2h, for example.");
      }
      if (!arm && window != null) {
        throw new dev.cutover.engine.api.InvalidInputException("window", "--window is the window of an armed "
            + "cutover; add --arm, or leave --window out to cut over now.");
      }
      if (arm) {
        ArmedCutover.duration("--window", window);
        if (ArmedCutover.duration("--every", every).compareTo(java.time.Duration.ofSeconds(1)) < 0) {
          throw new dev.cutover.engine.api.InvalidInputException("every", "--every " + every + " would judge the gate "
              + "without a pause; give 1s or more.");
        }
      }
    }

    @Override
    Integer other(CutoverSteps steps, TableSpec spec) throws Exception {
      if (!arm && !disarm) {
        return null;
      }
      if (spec.cluster().isPresent()) {
        throw new dev.cutover.engine.api.InvalidInputException("arm", "An armed cutover is for one server's table; "
            + "on a sharded table, cut over every node with ./cutover cutover --spec " + specFile.shown()
            + " --confirm " + spec.consumerView().name() + " once the gate is open.");
      }
      ArmedCutover armed = new ArmedCutover(steps, spec, err());
      if (disarm) {
        return armed.disarm((document, lines) -> print(document, lines));
      }
      return armed.arm(confirm, ArmedCutover.duration("--window", window), ArmedCutover.duration("--every", every),
          progressOptions, (document, lines) -> print(document, lines));
    }

    @Override
    Gate.Version toward() {
      return Gate.Version.V2;
    }

    @Override
    SwapResult swap(CutoverSteps steps, String confirmation, Progress progress,
        BiConsumer<ShardRef, SwapResult> switched) {
      return steps.cutover(confirmation, progress, switched);
    }
  }

  @Command(name = "rollback", mixinStandardHelpOptions = true,
      description = {"Switch consumers back to v1 with the same EXCHANGE TABLES, while v1 is kept; --check shows the "
          + "rollback gate. Exit 6 when it is closed, 8 when another process holds the repair.", Safety.ROLLBACK})
  public static final class RollbackCommand extends Swap {
    @Option(names = "--reason", paramLabel = "TEXT", description = "Why consumers go back to v1: one line, kept in "
        + "the audit trail (and every node's) with the rollback.")
    String reason;

    @Override
    Gate.Version toward() {
      return Gate.Version.V1;
    }

    @Override
    SwapResult swap(CutoverSteps steps, String confirmation, Progress progress,
        BiConsumer<ShardRef, SwapResult> switched) {
      return steps.rollback(confirmation, java.util.Optional.ofNullable(reason), progress, switched);
    }
  }
}
