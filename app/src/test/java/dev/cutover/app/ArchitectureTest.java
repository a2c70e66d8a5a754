package dev.cutover.app;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Data flows one way, ui -> engine -> ClickHouse: the engine knows nothing of the screen, the UI no SQL,
 * and everything outside the engine reaches it through two packages only: {@code dev.cutover.engine}
 * (the facades: a session, the engine's steps, the embedded server) and {@code dev.cutover.engine.api}
 * (the values, events and refusals they speak in).
 */
@AnalyzeClasses(packages = "dev.cutover", importOptions = {ImportOption.DoNotIncludeTests.class,
    ArchitectureTest.NoTestJars.class})
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
      .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..",
          "com.zaxxer.hikari..", "com.clickhouse..")
      .because("all SQL lives in the engine; the UI calls the engine's API");

  @ArchTest
  static final ArchRule theEngineIsTheOnlyDoorToItsSteps = noClasses()
      .that().resideOutsideOfPackage("dev.cutover.engine..")
      .should().dependOnClassesThat(JavaClass.Predicates.belongToAnyOf(
          dev.cutover.engine.backfill.Backfill.class, dev.cutover.engine.backfill.Planner.class,
          dev.cutover.engine.preflight.Preflight.class, dev.cutover.engine.reconcile.Reconciler.class,
          dev.cutover.engine.cutover.Swap.class, dev.cutover.engine.cutover.Gates.class,
          dev.cutover.engine.cutover.Retirement.class, dev.cutover.engine.repair.Repairs.class,
          dev.cutover.engine.repair.RepairStore.class))
      .because("the order plan, preflight, backfill, and one writer of the repair's state, are held by the Engine: "
          + "a backfill starts only from a ClearedPlan, and the repair moves only by compare-and-set");

  @ArchTest
  static final ArchRule aRepairIsReachedOverItsNodes = noClasses()
      .that().resideInAnyPackage("dev.cutover.ui..", "dev.cutover.app..")
      .and().resideOutsideOfPackage("dev.cutover.app.demo..")
      .should().callMethod(dev.cutover.engine.Engine.class, "plans")
      .orShould().callMethod(dev.cutover.engine.Engine.class, "backfills")
      .orShould().callMethod(dev.cutover.engine.Engine.class, "repairs")
      .orShould().callMethod(dev.cutover.engine.Engine.class, "reconciliations")
      .orShould().callMethod(dev.cutover.engine.Engine.class, "cutovers")
      .orShould().callMethod(dev.cutover.engine.Engine.class, "records", dev.cutover.engine.api.TableSpec.class,
          int.class)
      .because("the console and the command line take every step of a repair through Engine.repair(spec), one "
          + "TargetRepair over the target's nodes, so that a sharded table gets every step a table on one server "
          + "gets, under the cluster's rules (the demo world's own setup aside)");

  @ArchTest
  static final ArchRule uiDoesNotReachIntoTheApp = noClasses()
      .that().resideInAPackage("dev.cutover.ui..")
      .should().dependOnClassesThat().resideInAPackage("dev.cutover.app..")
      .because("the app wires the UI, not the other way round");

  @ArchTest
  static final ArchRule onlyTheApiLeavesTheEngine = noClasses()
      .that().resideOutsideOfPackage("dev.cutover.engine..")
      .should().dependOnClassesThat(resideInAPackage("dev.cutover.engine..")
          .and(not(resideInAnyPackage("dev.cutover.engine", "dev.cutover.engine.api.."))))
      .because("the engine's packages are its own to change: the console, the command line and the demo "
          + "speak to it through its facades and its API records only");

  @ArchTest
  static final ArchRule theApiStandsAlone = noClasses()
      .that().resideInAPackage("dev.cutover.engine.api..")
      .should().dependOnClassesThat(resideInAPackage("dev.cutover.engine..")
          .and(not(resideInAPackage("dev.cutover.engine.api.."))))
      .because("the API's values are what every step speaks in; if they reached back into a step, "
          + "the steps could not be changed without changing the API");

  @ArchTest
  static final ArchRule noJdbcOutsideTheEngine = noClasses()
      .that().resideOutsideOfPackage("dev.cutover.engine..")
      .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..",
          "com.zaxxer.hikari..", "com.clickhouse..")
      .because("statements, pools and retries are the engine's; a second path to the server would bypass "
          + "its quoting, its error words and its transient-failure policy");

  @ArchTest
  static final ArchRule enginePackagesFreeOfCycles = slices().matching("dev.cutover.engine.(*)..")
      .should().beFreeOfCycles();

  @ArchTest
  static final ArchRule consolePackagesFreeOfCycles = slices().matching("dev.cutover.ui.(*)..")
      .should().beFreeOfCycles();

  @ArchTest
  static final ArchRule appPackagesFreeOfCycles = slices().matching("dev.cutover.app.(*)..")
      .should().beFreeOfCycles();

  @ArchTest
  static final ArchRule onlyControllersTakeSteps = noClasses()
      .that().resideInAPackage("dev.cutover.ui..")
      .and().haveNameNotMatching(".*(Controller|\\.RepairWatch|\\.RunReading)(\\$.*)?")
      .should().dependOnClassesThat(JavaClass.Predicates.belongToAnyOf(dev.cutover.engine.Specs.class,
          dev.cutover.engine.Plans.class, dev.cutover.engine.Backfills.class, dev.cutover.engine.RepairBook.class,
          dev.cutover.engine.Reconciliations.class, dev.cutover.engine.Cutovers.class))
      .because("a screen is view, model and controller, and the controller is what talks to the engine (the repair "
          + "banner's RepairWatch and the Backfill controller's RunReading are controllers by another name)");

  /** The engine's test fixtures come to this module as a jar, which {@link ImportOption.DoNotIncludeTests} keeps. */
  static final class NoTestJars implements ImportOption {
    @Override
    public boolean includes(Location location) {
      return !location.contains("-tests.jar") && !location.contains("/test-classes/");
    }
  }
}
