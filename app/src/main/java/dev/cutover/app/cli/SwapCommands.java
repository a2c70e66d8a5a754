package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Session;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * cutover and rollback: the same EXCHANGE TABLES, each behind its own gate, confirmed by typing the
 * consumer view's name. A closed gate exits 6, with --check or without.
 */
public final class SwapCommands {

  private SwapCommands() {}

  abstract static class Swap extends EngineCommand {
    @Mixin SpecFile specFile;

    @Option(names = "--confirm", paramLabel = "VIEW", description = "The consumer view's name, typed to confirm.")
    String confirm;

    @Option(names = "--check", description = "Only show the gate, judged from the data now; change nothing.")
    boolean checkOnly;

    abstract Gate gate(Engine engine, TableSpec spec);

    abstract SwapResult swap(Engine engine, TableSpec spec, String confirmation);

    @Override
    int run(Session session, Engine engine) {
      TableSpec spec = specFile.load(engine);
      if (checkOnly) {
        Gate gate = gate(engine, spec);
        List<String> lines = new ArrayList<>();
        lines.add("The " + gate.step() + " gate is " + (gate.open() ? "open" : "closed") + ". Consumers read "
            + spec.consumerView() + " -> " + reads(gate, spec) + ". Statement: " + engine.cutoverStatement(spec));
        gate.conditions().forEach(c -> lines.add(String.format("  [%s] %-20s %s", c.met() ? "x" : " ", c.name(),
            c.detail())));
        print(Render.ordered("step", gate.step(), "open", gate.open(), "current", gate.current().name().toLowerCase(),
            "judged", gate.judged().map(Object::toString).orElse(null), "conditions", gate.conditions().stream()
                .map(c -> Render.ordered("name", c.name(), "met", c.met(), "detail", c.detail())).toList()), lines);
        return gate.open() ? ExitCodes.OK : ExitCodes.BLOCKED;
      }
      SwapResult result = swap(engine, spec, confirm);
      List<String> lines = List.of(result.action() + ": " + result.before() + " -> " + result.after() + " in "
          + result.took().toMillis() + " ms; " + result.verification());
      print(Render.ordered("action", result.action(), "statement", result.statement(), "before",
          result.before().name().toLowerCase(), "after", result.after().name().toLowerCase(), "at", result.at(),
          "took_ms", result.took().toMillis(), "verified", result.verified(), "verified_window",
          result.verifiedWindow().toString(), "verification", result.verification()), lines);
      return result.verified() ? ExitCodes.OK : ExitCodes.QUERY;
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
          + "gate. Exit 6 when the gate is closed or another process holds the repair.", Safety.CUTOVER})
  public static final class CutoverCommand extends Swap {
    @Override
    Gate gate(Engine engine, TableSpec spec) {
      return engine.gate(spec);
    }

    @Override
    SwapResult swap(Engine engine, TableSpec spec, String confirmation) {
      return engine.cutover(spec, confirmation);
    }
  }

  @Command(name = "rollback", mixinStandardHelpOptions = true,
      description = {"Switch consumers back to v1 with the same EXCHANGE TABLES, while v1 is kept; --check shows the "
          + "rollback gate. Exit 6 when it is closed or another process holds the repair.", Safety.ROLLBACK})
  public static final class RollbackCommand extends Swap {
    @Override
    Gate gate(Engine engine, TableSpec spec) {
      return engine.rollbackGate(spec);
    }

    @Override
    SwapResult swap(Engine engine, TableSpec spec, String confirmation) {
      return engine.rollback(spec, confirmation);
    }
  }
}
