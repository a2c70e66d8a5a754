package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.app.output.TextTable;
import dev.cutover.app.output.TextTable.Align;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "sample", mixinStandardHelpOptions = true,
    description = {"Compute a few hours with the corrected transform into a scratch table and diff them against v1 "
        + "(on a sharded spec, on every shard: each hour's figures added, each key naming its shard).",
        Safety.SAMPLE})
public final class SampleCommand extends EngineCommand {

  @Mixin SpecFile specFile;

  @Option(names = "--hour", paramLabel = "HOUR", required = true, description = "An hour to sample, UTC; repeatable.")
  List<String> hours = new ArrayList<>();

  @Option(names = "--keys", paramLabel = "N", defaultValue = "50",
      description = "Differing keys to show (default: ${DEFAULT-VALUE}).")
  int keys;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    List<HourPartition> parsed = hours.stream().map(h -> HourPartition.parse("sample hour (--hour)", h)).toList();
    return onRepair(engine, spec, (repair, finished) -> {
      // On a cluster every shard computes its own hours; each hour's figures are added, and each key names its shard.
      Diff diff = repair.plans().sample(parsed, Math.max(1, keys));
      print(ReconcileDocuments.SampleDocument.of(diff), lines(diff));
      return ExitCodes.OK;
    });
  }

  private List<String> lines(Diff diff) {
    TextTable t = new TextTable("", Align.LEFT, Align.LEFT, Align.RIGHT, Align.RIGHT, Align.RIGHT);
    t.row("hour", "measure", "v1", "sample", "delta");
    for (var h : diff.hours()) {
      t.row(Text.hour(h.hour()), "rows", Text.count(h.rowsV1()), Text.count(h.rowsV2()),
          h.identical() ? "identical" : Text.count(h.rowsV2() - h.rowsV1()));
      h.totals().forEach(m -> t.row("", m.measure().name(), Text.decimal(m.v1()), Text.decimal(m.v2()),
          Text.decimal(m.delta())));
    }
    List<String> out = new ArrayList<>(t.lines());
    out.add(Text.count(diff.expectedKeys()) + " key(s) differ as the spec's rules expect, "
        + Text.count(diff.unexpectedKeys()) + " unexpectedly" + (diff.keysTruncated() ? " (list cut at " + keys + ")"
            : "") + ".");
    TextTable unexpected = new TextTable("  ", Align.LEFT, Align.LEFT, Align.LEFT);
    diff.keys().stream().filter(k -> !k.expected()).limit(20).forEach(k -> unexpected.row(Text.hour(k.hour()),
        k.kind().name().toLowerCase(Locale.ROOT), k.shard().map(s -> s + ": ").orElse("") + k.key()));
    List<String> rows = unexpected.lines();
    if (!rows.isEmpty()) {
      out.add("Unexpected keys" + (diff.unexpectedKeys() > rows.size() ? " (the first " + rows.size() + ")" : "")
          + ":");
      out.addAll(rows);
    }
    return out;
  }
}
