-- The demo world whose live writer is a job outside the database: the derived hourly table v1, which the live job
-- replaces hour by hour, v2, the consumers' view, and an alerting view on v1.
-- {db} is the world's database (Atomic). Statements are separated by a semicolon at the end of a line.

-- Derived: hourly PnL as the live job has written it for six months (with the fee bug).
CREATE TABLE IF NOT EXISTS {db}.pnl_v1 (
  hour DateTime('UTC'),
  book LowCardinality(String),
  instrument LowCardinality(String),
  currency LowCardinality(String),
  quantity Int64,
  notional_usd Decimal(38, 6),
  fees_usd Decimal(38, 6),
  pnl_usd Decimal(38, 6),
  trade_count UInt64
) ENGINE = MergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, book, instrument, currency);

-- Derived, corrected: written by the redeployed live job from its boundary on, and by the backfill below it.
CREATE TABLE IF NOT EXISTS {db}.pnl_v2 AS {db}.pnl_v1;

-- What consumers read. Cutover swaps it to v2 in one EXCHANGE TABLES.
CREATE VIEW IF NOT EXISTS {db}.pnl AS
SELECT hour, book, instrument, currency, quantity, notional_usd, fees_usd, pnl_usd, trade_count FROM {db}.pnl_v1;

-- A side effect of v1: every insert into pnl_v1 raises an alert for each large hourly loss.
CREATE TABLE IF NOT EXISTS {db}.pnl_alerts (
  hour DateTime('UTC'),
  book LowCardinality(String),
  instrument LowCardinality(String),
  currency LowCardinality(String),
  pnl_usd Decimal(38, 6),
  raised_at DateTime('UTC')
) ENGINE = MergeTree ORDER BY (hour, book, instrument);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.pnl_alerts_mv TO {db}.pnl_alerts AS
SELECT hour, book, instrument, currency, pnl_usd, now('UTC') AS raised_at
FROM {db}.pnl_v1 WHERE pnl_usd < -5000;

-- The live job's private staging tables: an hour is computed here, then swapped into its target.
CREATE TABLE IF NOT EXISTS {db}.pnl_v1_live_staging AS {db}.pnl_v1;

CREATE TABLE IF NOT EXISTS {db}.pnl_v2_live_staging AS {db}.pnl_v2;
