package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Session;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** cutover and rollback: the same EXCHANGE TABLES, confirmed by typing the consumer view's name. */
public final class SwapCommands {

  private SwapCommands() {}

  abstract static class Swap extends EngineCommand {
    @Mixin SpecFile specFile;

    @Option(names = "--confirm", paramLabel = "VIEW", description = "The consumer view's name, typed to confirm.")
    String confirm;

    @Option(names = "--check", description = "Only show the gate; change nothing.")
    boolean checkOnly;

    abstract SwapResult swap(Engine engine, TableSpec spec, String confirmation);

    @Override
    int run(Session session, Engine engine) {
      TableSpec spec = specFile.load(engine);
      Gate gate = engine.gate(spec);
      List<String> lines = new ArrayList<>();
      lines.add("Consumers read " + spec.consumerView() + " -> " + (gate.current() == Gate.Version.V2 ? spec.targetTable()
          : gate.current() == Gate.Version.V1 ? spec.liveTable() : "unknown") + ". Statement: " + engine.cutoverStatement(spec));
      gate.conditions().forEach(c -> lines.add(String.format("  [%s] %-20s %s", c.met() ? "x" : " ", c.name(), c.detail())));
      if (checkOnly) {
        print(Render.ordered("open", gate.open(), "current", gate.current().name().toLowerCase(), "conditions",
            gate.conditions().stream().map(c -> Render.ordered("name", c.name(), "met", c.met(), "detail", c.detail())).toList()), lines);
        return gate.open() ? ExitCodes.OK : ExitCodes.BLOCKED;
      }
      SwapResult result = swap(engine, spec, confirm);
      lines.add(result.action() + ": " + result.before() + " -> " + result.after() + " in " + result.took().toMillis() + " ms; "
          + result.verification());
      print(Render.ordered("action", result.action(), "statement", result.statement(), "before", result.before().name().toLowerCase(),
          "after", result.after().name().toLowerCase(), "at", result.at(), "took_ms", result.took().toMillis(),
          "verification", result.verification()), lines);
      return result.verification().startsWith("verified") ? ExitCodes.OK : ExitCodes.QUERY;
    }
  }

  @Command(name = "cutover", mixinStandardHelpOptions = true,
      description = "Switch consumers to v2 in one EXCHANGE TABLES, if the gate is open; --check shows the gate.")
  public static final class CutoverCommand extends Swap {
    @Override
    SwapResult swap(Engine engine, TableSpec spec, String confirmation) {
      return engine.cutover(spec, confirmation);
    }
  }

  @Command(name = "rollback", mixinStandardHelpOptions = true,
      description = "Switch consumers back to v1 with the same EXCHANGE TABLES, while v1 is retained.")
  public static final class RollbackCommand extends Swap {
    @Override
    SwapResult swap(Engine engine, TableSpec spec, String confirmation) {
      return engine.rollback(spec, confirmation);
    }
  }
}
