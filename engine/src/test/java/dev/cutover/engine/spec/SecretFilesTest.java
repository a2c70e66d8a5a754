package dev.cutover.engine.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.ProfileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path that names the wrong file (a password file instead of the transform's SQL or the spec)
 * is refused by where and what, never with the file's text.
 */
class SecretFilesTest {

  @TempDir Path dir;
  private final String secret = "PLANTED-" + UUID.randomUUID();

  private InvalidInputException refused(Path spec) {
    InvalidInputException e = assertThrows(InvalidInputException.class, () -> SpecLoader.load(spec));
    assertFalse(e.getMessage().contains(secret), e.getMessage());
    assertFalse(e.getMessage().contains("PLANTED"), e.getMessage());
    return e;
  }

  private Path specWithTransformFile(String file) throws Exception {
    String yaml = SpecLoaderTest.VALID.replaceFirst("(?s)transform: \\|.*?(?=expected_differences:)",
        "transform: {file: " + file + "}\n");
    return Files.writeString(dir.resolve("s.yaml"), yaml);
  }

  @Test
  void aTransformFileThatIsASecretIsNotQuoted() throws Exception {
    Files.createDirectories(dir.resolve("access"));
    Files.writeString(dir.resolve("access/operator.secret"), secret + "\n");
    var e = refused(specWithTransformFile("access/operator.secret"));
    assertEquals("spec.transform", e.field());
    assertEquals("In the spec " + dir.resolve("s.yaml") + ", the transform file access/operator.secret does not start "
        + "with SELECT or WITH (line 1, column 1 of access/operator.secret); expected a single SELECT (or WITH … "
        + "SELECT) query.", e.getMessage());
  }

  @Test
  void aTransformFileIsRefusedByLineAndColumn() throws Exception {
    Files.writeString(dir.resolve("t.sql"), "\n  SELECT '" + secret + "' AS hour FROM clicks");
    var e = refused(specWithTransformFile("t.sql"));
    assertEquals("In the spec " + dir.resolve("s.yaml") + ", the transform file t.sql never uses {window_start} "
        + "outside quotes and comments; expected a query that filters its sources to the hour window with "
        + "{window_start} and {window_end} (the engine binds both).", e.getMessage());

    Files.writeString(dir.resolve("t.sql"), "-- the corrected query\nSELECT 1 AS hour FROM clicks\n"
        + "WHERE ts >= {window_start} AND ts < {window_end}; DROP TABLE `" + secret + "`");
    e = refused(specWithTransformFile("t.sql"));
    assertEquals("In the spec " + dir.resolve("s.yaml") + ", the transform file t.sql has a ';' at line 3, column 49 "
        + "of t.sql; expected exactly one query, with no ';' outside quotes.", e.getMessage());
  }

  @Test
  void aSpecPathThatNamesASecretIsNotQuoted() throws Exception {
    Path file = Files.writeString(dir.resolve("operator.secret"), secret + "\n");
    var e = refused(file);
    assertEquals("The spec " + file + " is a single YAML value, not a mapping of spec fields; check that it is the "
        + "spec file (see docs/SPEC.md).", e.getMessage());
    // A private key is a multi-line text to YAML.
    Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n" + secret + "\n-----END PRIVATE KEY-----\n");
    refused(file);
  }

  @Test
  void yamlThatDoesNotParseIsRefusedByLineAndColumnWithoutItsText() throws Exception {
    Path file = Files.writeString(dir.resolve("broken.yaml"), "spec: 1\nname: visits\npassword: " + secret
        + ": again\n");
    var e = refused(file);
    assertEquals("The spec " + file + " is not valid YAML (mapping values are not allowed here at line 3, column "
        + (("password: " + secret).length() + 1) + "); fix it there.", e.getMessage());
    Files.writeString(file, "spec: 1\n*" + secret + "\n");
    refused(file);

    Path profiles = Files.writeString(dir.resolve("profiles.yaml"), "profiles:\n  - name: prod\n    password: "
        + secret + ": x\n");
    var p = assertThrows(InvalidInputException.class, () -> new ProfileStore(profiles).list());
    assertFalse(p.getMessage().contains(secret), p.getMessage());
    assertEquals("The profiles file " + profiles + " is not valid YAML (line 3, column "
        + (("    password: " + secret).length() + 1) + ": mapping values are not allowed here); fix it or move it "
        + "away to start a new list.", p.getMessage());
  }
}
