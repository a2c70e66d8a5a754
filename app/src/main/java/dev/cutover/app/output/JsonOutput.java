package dev.cutover.app.output;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * Writes the records of the JSON contract (docs/JSON.md) as one line of JSON: field names in
 * snake_case, instants and hours as ISO-8601 UTC ({@code 2026-11-30T03:00:00Z}, milliseconds at most),
 * decimals as plain JSON numbers without binary-float noise ({@code -18.56}, never
 * {@code -18.559999999999491}): at most 15 significant digits, as many as a double holds exactly; a
 * value that is not a finite number as {@code null}.
 *
 * <pre>{@code
 * out.println(JsonOutput.write(new CheckDocument(...)));
 * }</pre>
 */
public final class JsonOutput {

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .addModule(new SimpleModule("cutover-json")
          .addSerializer(Instant.class, new InstantSerializer())
          .addSerializer(Double.class, new DecimalSerializer())
          .addSerializer(double.class, new DecimalSerializer()))
      .build();

  private static final java.math.MathContext DIGITS = new java.math.MathContext(15);

  private JsonOutput() {}

  /** One JSON document on one line. */
  public static String write(Object document) {
    return MAPPER.writeValueAsString(document);
  }

  /** The mapper, for tests and readers of the contract. */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /** {@code 2026-11-30T03:00:00Z}; sub-second parts only down to milliseconds. */
  private static final class InstantSerializer extends ValueSerializer<Instant> {
    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeString(value.truncatedTo(ChronoUnit.MILLIS).toString());
    }
  }

  /**
   * A double rounded to the 15 significant digits a double always holds exactly, written plainly:
   * a sum of Float64 values in ClickHouse, {@code 12252.330000000002}, is written {@code 12252.33}.
   */
  private static final class DecimalSerializer extends ValueSerializer<Double> {
    @Override
    public void serialize(Double value, JsonGenerator gen, SerializationContext ctxt) {
      if (value == null || !Double.isFinite(value)) {
        gen.writeNull();
      } else {
        gen.writeNumber(new BigDecimal(value, DIGITS).stripTrailingZeros());
      }
    }
  }
}
