package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The JSON contract of docs/JSON.md as JSON Schemas (src/test/resources/json-schema), and checks against them. */
final class JsonContract {

  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

  private JsonContract() {}

  /** The problems of {@code json} against the schema of {@code name} (e.g. "plan", "demo-seed"); empty when it fits. */
  static List<String> problems(String name, String json) {
    Schema schema = SCHEMAS.computeIfAbsent(name, n -> REGISTRY.getSchema(
        SchemaLocation.of("classpath:json-schema/" + n + ".schema.json")));
    return schema.validate(json, InputFormat.JSON).stream().map(Object::toString).toList();
  }

  /** {@code out} is exactly one JSON document on one line, and it fits the schema of {@code name}. */
  static String requireDocument(String name, CommandRun run) {
    List<String> lines = run.out().lines().filter(l -> !l.isBlank()).toList();
    if (lines.size() != 1) {
      fail(name + " printed " + lines.size() + " lines on stdout, not one JSON document:\n" + run.out() + run.err());
    }
    requireFits(name, lines.getFirst());
    return lines.getFirst();
  }

  static void requireFits(String name, String json) {
    List<String> problems = problems(name, json);
    assertTrue(problems.isEmpty(), () -> name + " does not fit its schema: " + problems + "\n" + json);
  }
}
