package dev.cutover.engine.tables;

import dev.cutover.engine.api.CorrectedWriter;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.sql.SqlLexer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a view running the spec's transform would do, from ClickHouse's own parse of the bound query ({@code
 * EXPLAIN AST}). Which of the spec's sources it reads: every table it names, in a join or a subquery too,
 * whatever the text around it. A materialized view fires only on inserts into the first table of its query,
 * and reads every other table whole at each insert: a corrected view over two time-stamped sources would add
 * the second one's rows since B again with every block of the first. And what in it removes duplicates,
 * which a view does within one insert block only.
 */
public final class TransformSources {

  private static final String NODE = "TableIdentifier ";
  private static final Pattern FUNCTION = Pattern.compile("Function (\\w+)( .*)?");
  private static final Pattern ALIAS = Pattern.compile("\\(alias `?([^`)]+)`?\\)");
  private static final Pattern DISTINCT = Pattern.compile("\\bDISTINCT\\b");
  private static final Pattern LIMIT_BY = Pattern.compile("\\bLIMIT\\b[^()]*?\\bBY\\b");

  private final Sql sql;
  private final TableSpec spec;
  private final String query;
  private final String subject;

  /** The spec's transform. */
  public TransformSources(Sql sql, TableSpec spec) {
    this(sql, spec, spec.transform(), "The transform");
  }

  /** The query of a corrected view of {@code live_views}, over its own source. */
  public TransformSources(Sql sql, TableSpec spec, CorrectedWriter.View view) {
    this(sql, spec, view.select().orElse(spec.transform()), view.select().isPresent() ? "The query of the corrected "
        + "view " + view.name() : "The transform");
  }

  private TransformSources(Sql sql, TableSpec spec, String query, String subject) {
    this.sql = sql;
    this.spec = spec;
    this.query = query;
    this.subject = subject;
  }

  /** The spec's sources that the transform reads, in the spec's order. */
  public List<TableSpec.Source> read() {
    Set<String> named = new LinkedHashSet<>();
    for (String line : ast()) {
      String node = line.strip();
      if (node.startsWith(NODE)) {
        String table = node.substring(NODE.length()).split(" ", 2)[0].replace("`", "");
        named.add(table.contains(".") ? table : spec.database().name() + "." + table);
      }
    }
    return spec.sources().stream().filter(s -> named.contains(spec.database().name() + "." + s.table().name()))
        .toList();
  }

  /**
   * What in the transform removes duplicates, which a view does within one insert block only: functions
   * that count or keep distinct values ({@code uniq*}, {@code countDistinct}, {@code -Distinct}, {@code
   * groupUniqArray}, {@code argMax}/{@code argMin}) from ClickHouse's parse, and {@code DISTINCT} or {@code
   * LIMIT … BY} from its formatting of the query (outside strings).
   */
  public List<String> deduplicating() {
    Set<String> found = new LinkedHashSet<>();
    for (String line : ast()) {
      Matcher f = FUNCTION.matcher(line.strip());
      if (f.matches()) {
        if (deduplicates(f.group(1))) {
          found.add(f.group(1) + "()");
        }
      }
    }
    String formatted = sql.queryOne("format a query of " + spec.name(), "SELECT formatQuerySingleLine(?)",
        rs -> rs.getString(1), bound().literal());
    StringBuilder code = new StringBuilder();
    for (SqlLexer.Token t : SqlLexer.tokens(formatted)) {
      code.append(t.kind() == SqlLexer.Kind.CODE ? formatted.substring(t.start(), t.end()) : " ");
    }
    if (DISTINCT.matcher(code).find()) {
      found.add("DISTINCT");
    }
    if (LIMIT_BY.matcher(code).find()) {
      found.add("LIMIT … BY");
    }
    return List.copyOf(found);
  }

  /**
   * The spec's measures whose values come through what removes duplicates in this query, from ClickHouse's
   * parse: the measure named by the nearest alias above each such function; every measure when the query as a
   * whole removes duplicates (DISTINCT, LIMIT … BY), or when a function's value reaches no measure by name (it is
   * used inside another expression, so which measures it moves cannot be told). Empty when nothing removes them.
   */
  public List<String> deduplicatedMeasures() {
    List<String> found = deduplicating();
    if (found.isEmpty()) {
      return List.of();
    }
    List<String> measures = spec.measures().stream().map(m -> m.name()).toList();
    if (found.contains("DISTINCT") || found.contains("LIMIT … BY")) {
      return measures;
    }
    Set<String> named = new LinkedHashSet<>();
    java.util.Deque<int[]> indents = new java.util.ArrayDeque<>();
    java.util.Deque<String> aliases = new java.util.ArrayDeque<>();
    for (String line : ast()) {
      int indent = line.length() - line.stripLeading().length();
      while (!indents.isEmpty() && indents.peek()[0] >= indent) {
        indents.pop();
        aliases.pop();
      }
      Matcher a = ALIAS.matcher(line);
      indents.push(new int[] {indent});
      aliases.push(a.find() ? a.group(1) : "");
      Matcher f = FUNCTION.matcher(line.strip());
      if (f.matches() && deduplicates(f.group(1))) {
        // The alias nearest above it that names a measure; an expression that names none moves an unknown one.
        String measure = aliases.stream().filter(measures::contains).findFirst().orElse(null);
        if (measure == null) {
          return measures;
        }
        named.add(measure);
      }
    }
    return measures.stream().filter(named::contains).toList();
  }

  private static boolean deduplicates(String function) {
    String lower = function.toLowerCase(Locale.ROOT);
    return lower.startsWith("uniq") || lower.contains("distinct") || lower.startsWith("groupuniqarray")
        || lower.startsWith("argmax") || lower.startsWith("argmin");
  }

  /**
   * The warning for a transform that a view runs: what in it removes duplicates holds within one insert
   * block only, so an event inserted again in a later block (a retried insert) counts twice through the view,
   * while the backfill, over whole hours, counts it once.
   */
  public Optional<String> blockBound() {
    List<String> found = deduplicating();
    if (found.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(subject + " removes duplicates (" + String.join(", ", found) + "), and a materialized "
        + "view runs it on each insert block alone: an event inserted again in a later block, such as a retried "
        + "insert, counts twice in " + spec.targetTable() + " from B, while the backfill, which reads whole hours, "
        + "counts it once. The two sides of B can differ for that reason alone; the reconciliation compares "
        + spec.targetTable() + " folded per hour and key, so a retried insert from B shows there as a difference.");
  }

  private Transform bound() {
    HourPartition any = HourPartition.containing(java.time.Instant.EPOCH).plusHours(24);
    return Transform.bind(spec, query, any, any.plusHours(1));
  }

  private List<String> ast() {
    Transform bound = bound();
    return sql.query("read a query of " + spec.name(), "EXPLAIN AST " + bound.sql(), rs -> rs.getString(1),
        bound.values().toArray());
  }

  /**
   * Why one materialized view cannot be the corrected live writer of this transform, when it reads more
   * than one of the spec's sources: a sentence that says what would happen and what to do instead.
   */
  public Optional<String> whyNotOneView() {
    List<TableSpec.Source> read = read();
    if (read.size() < 2) {
      return Optional.empty();
    }
    List<String> names = read.stream().map(s -> s.table().name()).toList();
    return Optional.of("The transform reads " + read.size() + " sources (" + String.join(", ", names) + "), and a "
        + "materialized view fires only on inserts into the first table of its query (" + names.getFirst() + "): "
        + "at each of them it would read " + String.join(" and ", names.subList(1, names.size())) + " whole from B "
        + "on, so " + spec.targetTable() + " would count those rows again with every block inserted into "
        + names.getFirst() + ", and nothing would be written for inserts into the others. One view cannot be "
        + "this table's corrected live writer: give one view per source instead (live_views in the spec, each a "
        + "SELECT over its own source appending partial rows that " + spec.targetTable() + " folds, as the views "
        + "that feed " + spec.liveTable() + " are; docs/SPEC.md), or point a writer outside the database at "
        + spec.targetTable() + " (declare-live).");
  }

  /**
   * Why {@code view}'s own query cannot be the corrected view of its source: it reads another of the spec's
   * sources, or not its own, as ClickHouse parses it. Each view of {@code live_views} fires on its own source and
   * must read nothing else.
   */
  public Optional<String> whyNotViewOf(CorrectedWriter.View view) {
    List<String> read = read().stream().map(TableSpec.Source::name).toList();
    String own = view.source().orElseThrow();
    if (read.equals(List.of(own))) {
      return Optional.empty();
    }
    return Optional.of("The corrected view " + view.name() + " fires on inserts into " + own + ", but its query reads "
        + (read.isEmpty() ? "none of the spec's sources" : String.join(", ", read)) + ": a view reads every other "
        + "table whole at each insert, so rows would be counted again with every block, or never. Write its query "
        + "as a SELECT over {" + own + "} alone, appending partial rows that " + spec.targetTable() + " folds.");
  }

  /**
   * Refuses {@code views} as the corrected live writer unless each reads its source alone: one view of the transform
   * one source, each view of {@code live_views} its own. A view fires only on its first table and reads every other
   * whole at each insert. Reads only; nothing is created.
   */
  public static void requireOneSourceEach(Sql sql, TableSpec spec, List<CorrectedWriter.View> views) {
    for (CorrectedWriter.View v : views) {
      TransformSources reading = new TransformSources(sql, spec, v);
      (v.source().isEmpty() ? reading.whyNotOneView() : reading.whyNotViewOf(v)).ifPresent(why -> {
        throw new dev.cutover.engine.api.InvalidInputException(v.source().isEmpty() ? "spec.transform"
            : "spec.live_views", why);
      });
    }
  }

  /**
   * The measures that {@code views} deduplicate within one insert block only, and how, over all of them; empty
   * when none does.
   */
  public static Optional<dev.cutover.engine.api.BlockBound> blockBoundMeasures(Sql sql, TableSpec spec,
      List<CorrectedWriter.View> views) {
    Set<String> measures = new LinkedHashSet<>();
    Set<String> by = new LinkedHashSet<>();
    for (CorrectedWriter.View v : views) {
      TransformSources reading = new TransformSources(sql, spec, v);
      measures.addAll(reading.deduplicatedMeasures());
      by.addAll(reading.deduplicating());
    }
    if (measures.isEmpty()) {
      return Optional.empty();
    }
    List<String> ordered = spec.measures().stream().map(m -> m.name()).filter(measures::contains).toList();
    return Optional.of(new dev.cutover.engine.api.BlockBound(ordered, List.copyOf(by)));
  }

  /** What the queries of {@code views} do that holds within one insert block only, said once for all of them. */
  public static Optional<String> blockBound(Sql sql, TableSpec spec, List<CorrectedWriter.View> views) {
    List<String> each = views.stream().flatMap(v -> new TransformSources(sql, spec, v).blockBound().stream())
        .toList();
    return each.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", each));
  }
}
