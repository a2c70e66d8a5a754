package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes that start or join one server at the same moment write its files at the same moment (a local
 * cluster's layout, each node's part in it, the operator's secret): every writer succeeds, what must be made
 * once is made once, and nothing is left beside the files. A shared name for the file written beside the
 * target made a second command fail with an internal error while the demo's live job joined the cluster.
 */
class PrivateFilesTest {

  private static final int WRITERS = 8;

  @TempDir Path temp;

  @Test
  void writersOfOneFileAtOnceAllSucceedAndLeaveNothingBeside() throws Exception {
    Path file = temp.resolve("cluster.xml");
    List<String> texts = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      texts.add("<clickhouse><!-- writer " + w + " --></clickhouse>\n");
    }
    atOnce(w -> {
      for (int i = 0; i < 50; i++) {
        PrivateFiles.write(file, texts.get(w));
      }
      return true;
    });
    assertTrue(texts.contains(Files.readString(file)), "the file holds one writer's whole text");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals(List.of(file), listing());
  }

  @Test
  void ofProcessesMakingOneFileOneMakesItAndTheOthersKeepIt() throws Exception {
    for (int round = 0; round < 20; round++) {
      Path file = temp.resolve("cluster-" + round + ".properties");
      List<Boolean> made = atOnce(w -> PrivateFiles.create(file, "made by " + w));
      assertEquals(1, made.stream().filter(m -> m).count(), "one maker in round " + round + ": " + made);
      assertEquals("made by " + made.indexOf(true), Files.readString(file), "the file holds its maker's text");
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertTrue(!PrivateFiles.create(file, "later"), "a file that exists is kept");
      assertEquals("made by " + made.indexOf(true), Files.readString(file));
    }
    assertTrue(listing().stream().noneMatch(p -> p.getFileName().toString().endsWith(".partial")), listing()
        .toString());
  }

  private interface Writer<T> {
    T run(int writer) throws Exception;
  }

  /** Runs {@code writer} on {@link #WRITERS} threads released at the same moment; returns each one's result. */
  private static <T> List<T> atOnce(Writer<T> writer) throws Exception {
    CyclicBarrier start = new CyclicBarrier(WRITERS);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<T>> running = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int id = w;
        Callable<T> task = () -> {
          start.await();
          return writer.run(id);
        };
        running.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : running) {
        results.add(f.get()); // a writer's exception fails the test here
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private List<Path> listing() throws Exception {
    try (Stream<Path> files = Files.list(temp)) {
      return files.sorted().toList();
    }
  }
}
