package dev.cutover.engine.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.InvalidInputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spec and transform files that are not what an operator meant: too large, not UTF-8, not a file at
 * all. Each is refused within a second, before its contents are read, in a sentence that names the
 * file, what is wrong and the fix, and never the contents.
 */
class SpecFilesTest {

  private static final Duration FAST = Duration.ofSeconds(5);

  @TempDir Path dir;

  private InvalidInputException refused(Path file) {
    return assertTimeoutPreemptively(FAST,
        () -> assertThrows(InvalidInputException.class, () -> SpecLoader.load(file)));
  }

  /** {@code bytes} of {@code head} then {@code fill} repeated, written in 1 MiB blocks. */
  private Path big(String name, String head, String fill, long bytes) throws IOException {
    Path file = dir.resolve(name);
    byte[] block = fill.repeat((1 << 20) / fill.length()).getBytes(StandardCharsets.UTF_8);
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      out.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.UTF_8)));
      while (out.size() < bytes) {
        out.write(ByteBuffer.wrap(block));
      }
    }
    return file;
  }

  @Test
  void aSixtyMegabyteScalarIsRefusedBySizeBeforeItIsRead() throws IOException {
    Path file = big("scalar.yaml", "name: ", "x", 60L << 20);
    long started = System.nanoTime();
    var e = refused(file);
    assertEquals("The spec file " + file + " holds " + Files.size(file) + " bytes, more than the limit of 1048576 "
        + "bytes (1 MiB); a spec and its transform are a few KiB, so check that the path names the right file.",
        e.getMessage());
    assertTrue(System.nanoTime() - started < 1_000_000_000L, "refused within a second");
  }

  @Test
  void aHundredMegabytesOfCommentsAreRefusedBySize() throws IOException {
    Path file = big("comments.yaml", "", "# nothing to see here, only a comment\n", 100L << 20);
    assertTrue(refused(file).getMessage().contains("more than the limit of 1048576 bytes (1 MiB)"));
  }

  @Test
  void theLimitIsOneMebibyteExactly() throws IOException {
    String spec = SpecLoaderTest.VALID + "description: |\n";
    int room = SpecFiles.MAX_BYTES - spec.getBytes(StandardCharsets.UTF_8).length;
    int lines = (room - 3) / 81;
    String filler = ("  " + "x".repeat(78) + "\n").repeat(lines);
    String last = "  " + "y".repeat(room - lines * 81 - 3) + "\n";
    Path file = Files.writeString(dir.resolve("full.yaml"), spec + filler + last);
    assertEquals(SpecFiles.MAX_BYTES, Files.size(file));
    assertEquals("visits", SpecLoader.load(file).name());
    Files.writeString(file, " ", StandardOpenOption.APPEND);
    assertTrue(refused(file).getMessage().contains(" holds 1048577 bytes, more than the limit"));
  }

  @Test
  void aLatinOneByteIsRefusedWithItsLineAndOffset() throws IOException {
    byte[] text = (SpecLoaderTest.VALID + "description: caf\u00e9 prices\n").getBytes(StandardCharsets.ISO_8859_1);
    Path file = Files.write(dir.resolve("latin1.yaml"), text);
    int offset = SpecLoaderTest.VALID.length() + "description: caf".length();
    int line = (int) SpecLoaderTest.VALID.lines().count() + 1;
    assertEquals("The spec file " + file + " is not UTF-8: the byte at offset " + offset + " (line " + line + ") is "
        + "0xE9, which UTF-8 does not allow there; save the file as UTF-8 (a Latin-1 or Windows editor setting writes "
        + "such bytes).", refused(file).getMessage());
  }

  @Test
  void utf8WithOrWithoutAByteOrderMarkLoads() throws IOException {
    String text = SpecLoaderTest.VALID + "description: café prices, 東京\n";
    Path plain = Files.writeString(dir.resolve("utf8.yaml"), text);
    Path marked = Files.writeString(dir.resolve("bom.yaml"), "\uFEFF" + text);
    assertEquals(SpecLoader.load(plain).sha256(), SpecLoader.load(marked).sha256());
  }

  @Test
  void aDirectoryIsNamedAsOne() {
    assertEquals("The spec file " + dir + " is a directory, not a regular file; give the path of the spec file "
        + "itself.", refused(dir).getMessage());
  }

  @Test
  void aNamedPipeIsNeverOpened() throws Exception {
    Path fifo = dir.resolve("spec.fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor());
    // Opening a FIFO for reading blocks until a writer comes: the refusal must come first.
    assertEquals("The spec file " + fifo + " is a named pipe (FIFO), not a regular file; give the path of the spec "
        + "file itself.", refused(fifo).getMessage());
  }

  @Test
  void devZeroIsACharacterDeviceAndNeverRead() {
    Path zero = Path.of("/dev/zero");
    assertEquals("The spec file /dev/zero is a character device, not a regular file; give the path of the spec file "
        + "itself.", refused(zero).getMessage());
  }

  @Test
  void aTransformFileIsHeldToTheSameRules() throws IOException {
    String spec = SpecLoaderTest.VALID.replaceFirst("(?s)transform: \\|.*?GROUP BY hour, site\n",
        "transform: {file: t.sql}\n");
    Path file = Files.writeString(dir.resolve("s.yaml"), spec);
    Path sql = dir.resolve("t.sql");
    Files.createDirectory(sql);
    assertEquals("The transform file " + sql + " is a directory, not a regular file; give the path of the transform "
        + "file itself.", refused(file).getMessage());
    Files.delete(sql);
    big("t.sql", "SELECT 1 -- ", "padding ", 2L << 20);
    var e = refused(file);
    assertTrue(e.getMessage().startsWith("The transform file " + sql + " holds "), e.getMessage());
    assertEquals("spec.transform.file", e.field());
    Files.delete(sql);
    Files.write(sql, new byte[] {'S', 'E', 'L', (byte) 0xC3, '(', '\n'});
    assertEquals("The transform file " + sql + " is not UTF-8: the byte at offset 3 (line 1) is 0xC3, which UTF-8 "
        + "does not allow there; save the file as UTF-8 (a Latin-1 or Windows editor setting writes such bytes).",
        refused(file).getMessage());
  }

  @Test
  void aSecretNamedByMistakeIsNeverQuoted() throws IOException {
    String secret = "hunter2-very-secret-token";
    Path asSpec = Files.writeString(dir.resolve("token"), secret + "\n");
    var e = refused(asSpec);
    assertEquals("The spec " + asSpec + " is a single YAML value, not a mapping of spec fields; check that it is the "
        + "spec file (see docs/SPEC.md).", e.getMessage());
    String spec = SpecLoaderTest.VALID.replaceFirst("(?s)transform: \\|.*?GROUP BY hour, site\n",
        "transform: {file: token}\n");
    Path file = Files.writeString(dir.resolve("s.yaml"), spec);
    e = refused(file);
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    assertEquals("In the spec " + file + ", the transform file token does not start with SELECT or WITH (line 1, "
        + "column 1 of token); expected a single SELECT (or WITH … SELECT) query.", e.getMessage());
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "password: [" + secret + "\n");
    e = refused(broken);
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
  }
}
