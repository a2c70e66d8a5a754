package dev.cutover.app.spec;

import dev.cutover.engine.Specs;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's spec (pnl.yaml) and its transforms, bundled with the application and written out as
 * files for the engine and for operators to read, edit or pass to {@code --spec}.
 */
public final class DemoSpec {

  public static final String SPEC = "pnl.yaml";
  /** The spec of a world whose v1 a materialized view feeds ({@code demo seed --live mv}). */
  public static final String VIEW_SPEC = "pnl-mv.yaml";
  /** The database of the demo world when none is named. */
  public static final String DEFAULT_DATABASE = "trading";
  public static final List<String> FILES = List.of(SPEC, "pnl_v2.sql", "pnl_v1.sql");
  public static final List<String> VIEW_FILES = List.of(VIEW_SPEC, "pnl_mv_v2.sql", "pnl_mv_v2_trades.sql",
      "pnl_mv_v2_fees.sql");

  private DemoSpec() {}

  /** Writes the spec and transforms into {@code folder}, pointing the spec at {@code database}; returns the spec's path. */
  public static Path export(Path folder, String database, boolean overwrite) {
    return export(folder, database, overwrite, false);
  }

  /**
   * As {@link #export(Path, String, boolean)}, the view-fed world's spec when {@code viewFed}. Files that already
   * hold what would be written are left as they are; the others are replaced whole (see {@link FolderWriter}).
   */
  public static Path export(Path folder, String database, boolean overwrite, boolean viewFed) {
    return write(folder, overwrite, contents(database, viewFed, ""));
  }

  /**
   * The spec of the demo world sharded by book over the local cluster ({@code demo seed --shards N}): the
   * job-fed spec with a {@code cluster} section naming the Distributed tables the seed created, trades
   * sharded and marks and FX rates copied on every shard.
   */
  public static Path exportCluster(Path folder, String database, boolean overwrite) {
    return exportCluster(folder, database, overwrite, false);
  }

  /** The same, for the world whose v1 a materialized view feeds on every shard when {@code viewFed}. */
  public static Path exportCluster(Path folder, String database, boolean overwrite, boolean viewFed) {
    return write(folder, overwrite, contents(database, viewFed, """

        # The world is sharded by book over the embedded local cluster (demo seed --shards N): the tables above
        # are each shard's local tables; consumers read pnl through the Distributed tables below (docs/CLUSTER.md).
        cluster:
          name: %s
          live: pnl_v1_all
          target: pnl_v2_all
          sources:
            trades: trades_all
        """.formatted(dev.cutover.engine.Session.LOCAL_CLUSTER) + (viewFed ? "    fees: fees_all\n"
        : "  copied: [marks, fx_rates]\n")));
  }

  /**
   * The files of the demo's spec by name, the spec last so that a reader who sees a new spec finds its new
   * transforms beside it: the spec points at {@code database} and ends with {@code specTail}.
   */
  private static java.util.SequencedMap<String, byte[]> contents(String database, boolean viewFed, String specTail) {
    List<String> files = viewFed ? VIEW_FILES : FILES;
    java.util.SequencedMap<String, byte[]> contents = new java.util.LinkedHashMap<>();
    for (String file : files.reversed()) {
      String text = resource(file);
      if (file.equals(files.getFirst())) {
        text = text.replaceFirst("(?m)^database: .*$", "database: " + database) + specTail;
      }
      contents.put(file, text.getBytes(StandardCharsets.UTF_8));
    }
    return contents;
  }

  /** Writes {@code contents} into {@code folder}, refusing files that exist unless {@code overwrite}; the spec's path. */
  private static Path write(Path folder, boolean overwrite, java.util.SequencedMap<String, byte[]> contents) {
    for (String file : contents.keySet()) {
      if (!overwrite && Files.exists(folder.resolve(file))) {
        throw new InvalidInputException("out", folder.resolve(file) + " exists; pass --force to overwrite it, or "
            + "choose another folder.");
      }
    }
    FolderWriter.write(folder, contents);
    return folder.resolve(contents.lastEntry().getKey());
  }

  private static String resource(String file) {
    try (InputStream in = DemoSpec.class.getResourceAsStream("/dev/cutover/app/demo/" + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the demo world in {@code database} was seeded with its v1 fed by a materialized view
   * ({@code demo seed --live mv}), as its state table says; false for a world of the live job, or none.
   */
  public static boolean viewFed(dev.cutover.engine.Statements statements, String database) {
    boolean seeded = statements.queryLong("look for the demo state", dev.cutover.engine.api.Statement.of(
        "SELECT count() FROM system.tables WHERE database = ? AND name = 'demo_state'", database)) > 0;
    return seeded && statements.queryFirst("read how the demo world is fed", dev.cutover.engine.api.Statement.of(
        "SELECT argMax(value, written_at) FROM " + dev.cutover.engine.api.Identifier.of(database).quoted()
            + ".demo_state WHERE key = 'live'"), row -> row.string(1)).filter("mv"::equals).isPresent();
  }

  /** The demo's spec for a world in {@code database}, loaded by the engine. */
  public static TableSpec load(String database) {
    return load(database, false);
  }

  /** The spec of the demo world in {@code database}: the view-fed world's when {@code viewFed}. */
  public static TableSpec load(String database, boolean viewFed) {
    try {
      Path folder = Files.createTempDirectory("cutover-demo-spec-");
      try {
        return Specs.read(export(folder, database, true, viewFed));
      } finally {
        for (String file : viewFed ? VIEW_FILES : FILES) {
          Files.deleteIfExists(folder.resolve(file));
        }
        Files.deleteIfExists(folder.resolve(FolderWriter.LOCK));
        Files.deleteIfExists(folder);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
