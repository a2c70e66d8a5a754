-- Marks of every instrument at the whole hours [first_time, first_time + hours): the fair price the
-- trades scatter around, taken at that instant. The mark at T closes the hour [T - 1h, T).
WITH
  {first_time} AS first_time,
  toUInt32({hours}) AS hours
SELECT
  first_time + toIntervalHour(h.number) AS mark_time,
  i.instrument AS instrument,
  toDecimal64(round(i.base_price * (1
      + 0.05 * sin(2 * pi() * toUnixTimestamp(mark_time) / (86400 * i.period_days) + i.phase_slow)
      + 0.015 * sin(2 * pi() * toUnixTimestamp(mark_time) / 61200 + i.phase_fast)), 4), 4) AS mark_price
FROM numbers(hours) AS h
CROSS JOIN {instruments} AS i
