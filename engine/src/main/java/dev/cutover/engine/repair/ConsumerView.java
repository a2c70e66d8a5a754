package dev.cutover.engine.repair;

import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The view consumers read and its rollback handle, as their definitions say: which version each
 * one reads. The cutover exchanges the two, so the handle always reads the other version.
 */
public final class ConsumerView {

  private final Sql sql;
  private final TableSpec spec;

  public ConsumerView(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** The rollback handle: {@code <consumer_view>__next}. */
  public Identifier handle() {
    return TableNames.of(spec).nextView();
  }

  /** Which version the consumer view reads now; refuses when the view does not exist. */
  public Version reads() {
    return definition(spec.consumerView()).map(this::version).orElseThrow(() -> new InvalidInputException(
        "spec.tables.consumer_view", "The consumer view " + spec.database() + "." + spec.consumerView()
            + " does not exist."));
  }

  /** Which version the rollback handle reads, if it exists. */
  public Optional<Version> handleReads() {
    return definition(handle()).map(this::version);
  }

  /** The consumer view's query, as the server stores it. */
  public String query() {
    return definition(spec.consumerView()).orElseThrow(() -> new InvalidInputException("spec.tables.consumer_view",
        "The consumer view " + spec.database() + "." + spec.consumerView() + " does not exist."));
  }

  public boolean liveExists() {
    return sql.queryLong("look up " + spec.liveTable(), "SELECT count() FROM system.tables WHERE database = ? AND "
        + "name = ?", spec.database().name(), spec.liveTable().name()) > 0;
  }

  private Optional<String> definition(Identifier view) {
    return sql.query("read the definition of " + view, "SELECT as_select FROM system.tables WHERE database = ? AND "
        + "name = ?", rs -> rs.getString(1), spec.database().name(), view.name()).stream().findFirst();
  }

  private Version version(String query) {
    boolean v1 = mentions(query, spec.consumerLive().name());
    boolean v2 = mentions(query, spec.consumerTarget().name());
    return v1 == v2 ? Version.UNKNOWN : v2 ? Version.V2 : Version.V1;
  }

  public static boolean mentions(String query, String table) {
    return Pattern.compile("(?<![A-Za-z0-9_])`?" + Pattern.quote(table) + "`?(?![A-Za-z0-9_])").matcher(query).find();
  }

  public static String replaceTable(String query, String from, String to) {
    return Pattern.compile("(?<![A-Za-z0-9_])(`?)" + Pattern.quote(from) + "(`?)(?![A-Za-z0-9_])").matcher(query)
        .replaceAll("$1" + Matcher.quoteReplacement(to) + "$2");
  }
}
