package dev.cutover.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Data flows one way, ui -> engine -> ClickHouse: the engine knows nothing of the screen, the UI no SQL. */
@AnalyzeClasses(packages = "dev.cutover", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule engineDoesNotKnowTheScreen = noClasses()
      .that().resideInAPackage("dev.cutover.engine..")
      .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..", "dev.cutover.ui..",
          "dev.cutover.app..")
      .because("the engine is driven by the console and the command line alike");

  @ArchTest
  static final ArchRule uiSpeaksNoSql = noClasses()
      .that().resideInAPackage("dev.cutover.ui..")
      .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "org.jooq..",
          "com.zaxxer.hikari..", "com.clickhouse..")
      .because("all SQL lives in the engine; the UI calls the engine's API");

  @ArchTest
  static final ArchRule uiDoesNotReachIntoTheApp = noClasses()
      .that().resideInAPackage("dev.cutover.ui..")
      .should().dependOnClassesThat().resideInAPackage("dev.cutover.app..")
      .because("the app wires the UI, not the other way round");
}
