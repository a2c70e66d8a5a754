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
 * decimals as plain JSON numbers with the digits that print them ({@code -18.56}, never
 * {@code -18.559999999999491}), a value that is not a finite number as {@code null}.
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
   * A double as the shortest decimal that reads back as the same double, written plainly: the
   * digits a person would write, not the binary fraction behind them.
   */
  private static final class DecimalSerializer extends ValueSerializer<Double> {
    @Override
    public void serialize(Double value, JsonGenerator gen, SerializationContext ctxt) {
      if (value == null || !Double.isFinite(value)) {
        gen.writeNull();
      } else {
        gen.writeNumber(BigDecimal.valueOf(value).stripTrailingZeros());
      }
    }
  }
}
