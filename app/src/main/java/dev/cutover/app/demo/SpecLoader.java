package dev.cutover.app.demo;

import dev.cutover.app.demo.TableSpec.Boundary;
import dev.cutover.app.demo.TableSpec.ConsumerCache;
import dev.cutover.app.demo.TableSpec.ExpectedDifference;
import dev.cutover.app.demo.TableSpec.Retention;
import dev.cutover.app.demo.TableSpec.Source;
import dev.cutover.app.demo.TableSpec.Tables;
import dev.cutover.app.demo.TableSpec.Throttle;
import dev.cutover.app.demo.TableSpec.Transform;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads a spec from YAML and validates all of it at once, or refuses it with a sentence that names
 * the field. The demo's spec ships as the resource {@value #BUNDLED}; any other spec is a file
 * whose transform may sit beside it.
 *
 * <pre>{@code
 * TableSpec spec = SpecLoader.load(Path.of("specs/pnl.yaml"));
 * TableSpec demo = SpecLoader.bundled();
 * }</pre>
 */
public final class SpecLoader {

  /** The demo's spec, in the same resource folder as its transforms. */
  public static final String BUNDLED = "pnl.yaml";

  private static final String RESOURCES = "/dev/cutover/app/demo/";
  private static final Set<String> WINDOW = Set.of("window_start", "window_end");
  private static final Pattern COLUMN_REFERENCE = Pattern.compile("\\b(v1|v2)\\.([A-Za-z_][A-Za-z0-9_]*)");
  private static final int MAX_SPEC_BYTES = 1 << 20;

  private SpecLoader() {}

  /** Reads a spec file; a transform {@code file:} is read relative to the spec's folder. */
  public static TableSpec load(Path file) {
    Path folder = file.toAbsolutePath().getParent();
    return parse(read(file), file.toString(), relative -> read(folder.resolve(relative)));
  }

  /** The demo's spec, {@value #BUNDLED}, as shipped with the application. */
  public static TableSpec bundled() {
    return parse(resource(BUNDLED), BUNDLED, SpecLoader::resource);
  }

  /** Reads a spec from text; {@code readRelative} reads a transform file named in it. */
  public static TableSpec parse(String yaml, String origin, UnaryOperator<String> readRelative) {
    Object document;
    try {
      document = new Load(LoadSettings.builder().setLabel(origin).build()).loadFromString(yaml);
    } catch (YamlEngineException e) {
      throw new InvalidInputException("spec", "The spec " + origin + " is not valid YAML: "
          + Sql.firstLine(e.getMessage()) + "; fix the syntax and load it again.");
    }
    SpecFields root = SpecFields.root(origin, document).only("spec_version", "name", "description", "database",
        "time_column", "keys", "measures", "sources", "allowed_lateness", "tables", "transform",
        "expected_differences", "default_tolerance", "boundary", "throttle", "retention");
    root.integer("spec_version", 0, 1, 1);
    if (!root.has("spec_version")) {
      throw root.refuse("spec_version", "is missing; this Cutover reads spec_version: 1");
    }
    String name = root.string("name");
    if (!name.matches("[a-z][a-z0-9_-]{0,62}")) {
      throw root.refuse("name", "is '" + name + "'; use lower-case letters, digits, '-' and '_', starting with a letter");
    }
    Identifier database = root.identifier("database");
    Identifier timeColumn = root.identifier("time_column");
    List<Identifier> keys = root.identifiers("keys");
    List<Identifier> measures = root.identifiers("measures");
    Set<Identifier> columns = new HashSet<>(keys);
    columns.add(timeColumn);
    for (Identifier measure : measures) {
      if (!columns.add(measure)) {
        throw root.refuse("measures", "names " + measure + ", which is also the time column or a key");
      }
    }
    if (keys.contains(timeColumn)) {
      throw root.refuse("keys", "names the time column " + timeColumn + "; the hour is always part of the key");
    }

    List<Source> sources = sources(root, database);
    Tables tables = tables(root.mapping("tables").only("v1", "v2", "consumer_view"), database);
    Transform transform = transform(root.mapping("transform").only("sql", "file", "resource"), origin, readRelative,
        sources);
    List<ExpectedDifference> rules = rules(root, measures, columns);
    BigDecimal defaultTolerance = root.decimal("default_tolerance", BigDecimal.ZERO);

    SpecFields boundary = root.mappingOrEmpty("boundary").only("safety_margin_hours", "minimum_overlap_hours");
    SpecFields throttle = root.mappingOrEmpty("throttle").only("workers", "hours_per_batch", "max_threads", "priority",
        "pause_when_live_lag_exceeds");
    SpecFields retention = root.mappingOrEmpty("retention").only("keep_v1_at_least", "consumers");
    List<ConsumerCache> consumers = new ArrayList<>();
    List<?> consumerItems = retention.list("consumers", List.of());
    for (int i = 0; i < consumerItems.size(); i++) {
      SpecFields consumer = retention.item("consumers", i, consumerItems.get(i)).only("name", "cache_lifetime");
      if (!consumer.has("cache_lifetime")) {
        throw consumer.refuse("cache_lifetime", "is missing, and it is required");
      }
      consumers.add(new ConsumerCache(consumer.string("name"), consumer.duration("cache_lifetime", Duration.ZERO)));
    }

    return new TableSpec(1, name, root.string("description", ""), database, timeColumn, keys, measures, sources,
        root.duration("allowed_lateness", Duration.ZERO), tables, transform, rules, defaultTolerance,
        new Boundary(boundary.integer("safety_margin_hours", 3, 1, 168),
            boundary.integer("minimum_overlap_hours", 24, 1, 24 * 90)),
        new Throttle(throttle.integer("workers", 2, 1, 32), throttle.integer("hours_per_batch", 24, 1, 96),
            throttle.integer("max_threads", 2, 1, 256), throttle.integer("priority", 10, 0, 1000),
            throttle.duration("pause_when_live_lag_exceeds", Duration.ofMinutes(30))),
        new Retention(retention.duration("keep_v1_at_least", Duration.ofDays(7)), consumers),
        origin);
  }

  private static List<Source> sources(SpecFields root, Identifier database) {
    List<?> items = root.list("sources");
    if (items.isEmpty()) {
      throw root.refuse("sources", "is an empty list; name at least the source whose time drives the transform");
    }
    List<Source> sources = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      SpecFields source = root.item("sources", i, items.get(i)).only("name", "table", "time_column", "description");
      String name = source.string("name");
      if (!name.matches("[a-z_][a-z0-9_]{0,62}") || WINDOW.contains(name)) {
        throw source.refuse("name", "is '" + name + "'; use a lower-case simple name other than window_start and "
            + "window_end (the transform writes it in braces)");
      }
      if (!names.add(name)) {
        throw source.refuse("name", "repeats the source name " + name);
      }
      sources.add(new Source(name, source.table("table", database), source.identifier("time_column"),
          source.string("description", "")));
    }
    return sources;
  }

  private static Tables tables(SpecFields tables, Identifier database) {
    Tables result = new Tables(tables.table("v1", database), tables.table("v2", database),
        tables.table("consumer_view", database));
    if (result.v1().equals(result.v2()) || result.v1().equals(result.consumerView())
        || result.v2().equals(result.consumerView())) {
      throw tables.refuse("v2", "must differ from v1 and from consumer_view: the corrected logic never writes the "
          + "table consumers read");
    }
    return result;
  }

  private static Transform transform(SpecFields transform, String origin, UnaryOperator<String> readRelative,
      List<Source> sources) {
    int given = (transform.has("sql") ? 1 : 0) + (transform.has("file") ? 1 : 0) + (transform.has("resource") ? 1 : 0);
    if (given != 1) {
      throw transform.refuse("sql", "and file and resource: give exactly one of them (" + given + " given)");
    }
    String where;
    String sql;
    if (transform.has("sql")) {
      where = origin + " (transform.sql)";
      sql = transform.string("sql");
    } else {
      boolean file = transform.has("file");
      String name = file ? transform.string("file") : transform.string("resource");
      where = name;
      try {
        sql = file ? readRelative.apply(name) : resource(name);
      } catch (InvalidInputException e) {
        throw transform.refuse(file ? "file" : "resource", "names " + name + ", which cannot be read: " + e.getMessage());
      }
    }
    String key = transform.has("sql") ? "sql" : transform.has("file") ? "file" : "resource";
    Set<String> used = SqlTemplate.of(where, sql).placeholders();
    if (!used.containsAll(WINDOW)) {
      throw transform.refuse(key, "must use both {window_start} and {window_end} to select the hours it computes");
    }
    Set<String> known = new HashSet<>(WINDOW);
    sources.forEach(s -> known.add(s.name()));
    for (String placeholder : used) {
      if (!known.contains(placeholder)) {
        throw transform.refuse(key, "uses {" + placeholder + "}, which is not a source; known: "
            + String.join(", ", known));
      }
    }
    return new Transform(where, sql);
  }

  private static List<ExpectedDifference> rules(SpecFields root, List<Identifier> measures, Set<Identifier> columns) {
    List<?> items = root.list("expected_differences", List.of());
    List<ExpectedDifference> rules = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      SpecFields rule = root.item("expected_differences", i, items.get(i))
          .only("name", "rows", "measures", "difference", "tolerance", "reason");
      String name = rule.string("name");
      if (!names.add(name)) {
        throw rule.refuse("name", "repeats the rule name " + name);
      }
      List<Identifier> ruleMeasures = rule.identifiers("measures");
      for (Identifier m : ruleMeasures) {
        if (!measures.contains(m)) {
          throw rule.refuse("measures", "names " + m + ", which is not one of the measures " + measures);
        }
      }
      String rows = expression(rule, "rows", rule.string("rows", "true"), columns);
      String difference = expression(rule, "difference", rule.string("difference"), columns);
      rules.add(new ExpectedDifference(name, rows, ruleMeasures, difference,
          rule.decimal("tolerance", BigDecimal.ZERO), rule.string("reason")));
    }
    return rules;
  }

  /** An expression over {@code v1.column} and {@code v2.column}; only columns of the table may appear. */
  private static String expression(SpecFields rule, String key, String text, Set<Identifier> columns) {
    if (text.contains(";") || text.contains("--") || text.contains("/*")) {
      throw rule.refuse(key, "holds ';' or a comment; give one expression");
    }
    Matcher m = COLUMN_REFERENCE.matcher(text);
    while (m.find()) {
      if (!columns.contains(Identifier.of(m.group(2)))) {
        throw rule.refuse(key, "refers to " + m.group() + ", but " + m.group(2) + " is not the time column, a key or "
            + "a measure");
      }
    }
    return text;
  }

  private static String read(Path file) {
    try {
      if (Files.size(file) > MAX_SPEC_BYTES) {
        throw new InvalidInputException("spec", "The file " + file + " is larger than 1 MB; a spec and its transform "
            + "are small text files.");
      }
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidInputException("spec", "Cannot read " + file + " (" + e.getClass().getSimpleName() + ": "
          + e.getMessage() + "); check the path and that the file is readable.");
    }
  }

  private static String resource(String name) {
    if (name.contains("..") || name.startsWith("/")) {
      throw new InvalidInputException("spec", "The resource name " + name + " must be a plain name inside the "
          + "application's spec folder.");
    }
    try (InputStream in = SpecLoader.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new InvalidInputException("spec", "The application has no spec resource " + name + ".");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidInputException("spec", "Cannot read the resource " + name + ": " + e.getMessage() + ".");
    }
  }
}
