package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cutover.engine.api.EngineProgress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded server whose data lies on tmpfs reads its files by plain pread: tmpfs refuses the read
 * that would not block, which ClickHouse's default tries first, so every read of every file went to a
 * reader thread and back (a carry from v1 four times slower). On a disk the server keeps its default.
 */
class PlainReadsTest {

  private static final Path SHARED_MEMORY = Path.of("/dev/shm");

  @TempDir Path onDisk;

  @Test
  void aServerWithItsDataOnTmpfsReadsByPlainPreadWhateverItsAccess() throws Exception {
    assumeTrue(fileSystem(SHARED_MEMORY).equals("tmpfs"), "/dev/shm is not a tmpfs here");
    for (ServerAccess access : new ServerAccess[] {ServerAccess.restricted(), ServerAccess.open()}) {
      Path dir = Files.createTempDirectory(SHARED_MEMORY, "cutover-plain-reads-");
      try {
        assertEquals("pread", readMethod(dir, access), access.toString());
      } finally {
        EmbeddedServer.stopRunning(dir, "the test is done");
        deleteTree(dir);
      }
    }
  }

  @Test
  void aServerWithItsDataOnADiskKeepsTheServersDefault() throws Exception {
    assumeTrue(!fileSystem(onDisk).equals("tmpfs"), "the temporary folder is on tmpfs here");
    try {
      assertEquals("pread_threadpool", readMethod(onDisk, ServerAccess.restricted()));
    } finally {
      EmbeddedServer.stopRunning(onDisk, "the test is done");
    }
  }

  private static String readMethod(Path dir, ServerAccess access) throws SQLException {
    EmbeddedServer server = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), access, EngineProgress.NONE);
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(),
            new String(server.password().resolve()));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT getSetting('local_filesystem_read_method')")) {
      rs.next();
      return rs.getString(1);
    } finally {
      server.close();
    }
  }

  private static String fileSystem(Path path) throws IOException {
    return Files.getFileStore(path).type();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
