package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Session;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "sample", mixinStandardHelpOptions = true,
    description = {"Compute a few hours with the corrected transform into a scratch table and diff them against v1.",
        Safety.SAMPLE})
public final class SampleCommand extends EngineCommand {

  @Option(names = "--spec", paramLabel = "FILE",
      description = "The spec of the table, or 'demo' for the demo world's (default: $CUTOVER_SPEC).")
  java.nio.file.Path specFile;

  @Option(names = "--hour", paramLabel = "HOUR", required = true, description = "An hour to sample, UTC; repeatable.")
  List<String> hours = new ArrayList<>();

  @Option(names = "--keys", paramLabel = "N", defaultValue = "50", description = "Differing keys to show (default: ${DEFAULT-VALUE}).")
  int keys;

  @Override
  int run(Session session, Engine engine) {
    SpecOptions so = new SpecOptions();
    so.spec = specFile;
    TableSpec spec = so.load(engine);
    List<HourPartition> parsed = hours.stream().map(h -> HourPartition.parse("sample hour (--hour)", h)).toList();
    Diff diff = engine.sample(spec, parsed, Math.max(1, keys));
    List<String> lines = new ArrayList<>();
    for (var h : diff.hours()) {
      lines.add(h.hour() + "  rows v1 " + h.rowsV1() + ", sample " + h.rowsV2() + (h.identical() ? "  identical" : ""));
      h.totals().forEach(t -> lines.add(String.format("    %-16s v1 %,18.4f  v2 %,18.4f  delta %,16.4f", t.measure(),
          t.v1(), t.v2(), t.delta())));
    }
    lines.add(diff.expectedKeys() + " key(s) differ as the spec's rules expect, " + diff.unexpectedKeys()
        + " unexpectedly" + (diff.keysTruncated() ? " (list cut at " + keys + ")" : "") + ".");
    diff.keys().stream().filter(k -> !k.expected()).limit(20).forEach(k -> lines.add("  unexpected: " + k.hour() + " "
        + k.key() + " " + k.kind().name().toLowerCase()));
    print(Render.diff(diff), lines);
    return ExitCodes.OK;
  }
}
