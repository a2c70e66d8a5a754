package dev.cutover.bench;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks measure the engine from outside: through its facades, its API and the probes it
 * publishes with its test fixtures. A benchmark that reached into a package would measure code the
 * engine is free to change, and break when it does.
 */
class BenchArchitectureTest {

  private static final JavaClasses BENCH = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPath(Path.of("target", "classes"));

  @Test
  void theBenchmarksLiveInTheirOwnPackage() {
    assertFalse(BENCH.isEmpty(), "the benchmarks' classes were found");
    noClasses().should().resideInAPackage("dev.cutover.engine..")
        .because("a class put into the engine's packages reaches what the engine does not publish")
        .check(BENCH);
  }

  @Test
  void theBenchmarksReachTheEngineOnlyThroughItsApiAndProbes() {
    noClasses().should().dependOnClassesThat(resideInAPackage("dev.cutover.engine..")
            .and(not(resideInAnyPackage("dev.cutover.engine", "dev.cutover.engine.api..",
                "dev.cutover.engine.testing.."))))
        .because("the engine's packages are its own to change")
        .check(BENCH);
    noClasses().should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..",
            "com.zaxxer.hikari..", "com.clickhouse..")
        .because("the benchmarks' own statements run on the engine's runner")
        .check(BENCH);
  }
}
