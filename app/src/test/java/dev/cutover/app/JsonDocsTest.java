package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/JSON.md tells the truth: each of its examples fits the schema it names, and every command has one. */
class JsonDocsTest {

  private static final Pattern BLOCK = Pattern.compile("```json schema=([a-z0-9-]+)( lines)?\\n(.*?)\\n```",
      Pattern.DOTALL);

  @Test
  void everyExampleFitsItsSchema() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "JSON.md"));
    Matcher m = BLOCK.matcher(page);
    Set<String> shown = new TreeSet<>();
    List<String> problems = new ArrayList<>();
    while (m.find()) {
      String schema = m.group(1);
      shown.add(schema);
      List<String> documents = m.group(2) == null ? List.of(m.group(3))
          : m.group(3).lines().filter(l -> !l.isBlank()).toList();
      for (String document : documents) {
        JsonContract.problems(schema, document).forEach(p -> problems.add(schema + ": " + p));
      }
    }
    assertEquals(List.of(), problems);
    Set<String> schemas = new TreeSet<>();
    try (var files = Files.list(Path.of("src", "test", "resources", "json-schema"))) {
      files.map(f -> f.getFileName().toString().replace(".schema.json", "")).forEach(schemas::add);
    }
    schemas.removeAll(Set.of("common", "demo-reset")); // demo reset has demo seed's shape; the page says so
    assertTrue(shown.containsAll(schemas), "docs/JSON.md has no example for " + schemas.stream()
        .filter(s -> !shown.contains(s)).toList());
  }
}
