package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineLibraryTest {

  @TempDir Path dir;

  @Test
  void unpacksTheLibraryFromAnNpmTarballAndReportsProgress() throws Exception {
    byte[] library = new byte[70_000];
    for (int i = 0; i < library.length; i++) {
      library[i] = (byte) (i * 31);
    }
    Path archive = dir.resolve("pkg.tgz");
    writeTarGz(archive, List.of(new Entry("package/package.json", "{}".getBytes(StandardCharsets.UTF_8)),
        new Entry("package/libchdb.so", library)));
    List<Long> reported = new ArrayList<>();

    Path out = dir.resolve("libchdb.so");
    EngineLibrary.extract(archive, out, (step, done, total) -> reported.add(done));

    assertArrayEquals(library, Files.readAllBytes(out));
    assertEquals(List.of(70_000L), reported);
  }

  @Test
  void aMissingNpmIsASentenceThatSaysWhatToInstallOrSet() {
    var library = new EngineLibrary(dir, null, "npm-that-is-not-installed");
    var e = assertThrows(EmbeddedEngineException.class, () -> library.resolve(EngineProgress.NONE));
    assertEquals("npm was not found, and Cutover needs it once to fetch the ClickHouse engine "
        + "(@chdb/lib-linux-x64-gnu@26.7.3-stable.1). Install Node.js with npm (on Debian: apt-get install npm), "
        + "or set CUTOVER_LIBCHDB to an existing libchdb.so.", e.getMessage());
  }

  @Test
  void anOverrideThatIsNotAFileIsRefused() {
    var library = new EngineLibrary(dir, dir.resolve("nowhere/libchdb.so").toString(), "npm");
    var e = assertThrows(EmbeddedEngineException.class, () -> library.resolve(EngineProgress.NONE));
    assertEquals("CUTOVER_LIBCHDB is set to " + dir.resolve("nowhere/libchdb.so") + ", which is not a file. "
        + "Point it at an existing libchdb.so (@chdb/lib-linux-x64-gnu@26.7.3-stable.1) or unset it to fetch one "
        + "with npm.", e.getMessage());
  }

  @Test
  void aCachedLibraryIsReusedWithoutFetching() throws Exception {
    var library = new EngineLibrary(dir, null, "npm-that-is-not-installed");
    Files.createDirectories(library.cachedPath().getParent());
    Files.writeString(library.cachedPath(), "cached");
    assertEquals(library.cachedPath(), library.resolve(EngineProgress.NONE));
  }

  private record Entry(String name, byte[] content) {}

  private static void writeTarGz(Path file, List<Entry> entries) throws Exception {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      for (Entry e : entries) {
        byte[] header = new byte[512];
        put(header, 0, e.name());
        put(header, 100, "0000644");
        put(header, 124, String.format("%011o", e.content().length));
        header[156] = '0';
        put(header, 257, "ustar");
        out.write(header);
        out.write(e.content());
        out.write(new byte[(512 - e.content().length % 512) % 512]);
      }
      out.write(new byte[1024]);
    }
  }

  private static void put(byte[] header, int offset, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, header, offset, bytes.length);
  }
}
