-- The demo world: raw inputs, the derived hourly table v1 with its consumers, and the demo's own state.
-- {db} is the world's database (Atomic). Statements are separated by a semicolon at the end of a line.

-- Reference data: one row per listed instrument; its phases make each seed's prices different.
CREATE TABLE IF NOT EXISTS {db}.instruments (
  instrument_id UInt16,
  instrument LowCardinality(String),
  venue LowCardinality(String),
  currency LowCardinality(String),
  base_price Float64,
  period_days UInt8,
  phase_slow Float64,
  phase_fast Float64
) ENGINE = MergeTree ORDER BY instrument_id;

-- Raw input: every execution. A retried insert of the same block is dropped (deduplication window).
CREATE TABLE IF NOT EXISTS {db}.trades (
  trade_id UInt64,
  event_time DateTime('UTC'),
  book LowCardinality(String),
  instrument LowCardinality(String),
  side Enum8('buy' = 1, 'sell' = 2),
  quantity UInt32,
  price Decimal(18, 4),
  fee Decimal(18, 4),
  currency LowCardinality(String)
) ENGINE = MergeTree PARTITION BY toYYYYMM(event_time) ORDER BY (event_time, book, instrument, trade_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- Raw input: the mark price of each instrument at the end of each hour (mark_time is the hour end).
CREATE TABLE IF NOT EXISTS {db}.marks (
  mark_time DateTime('UTC'),
  instrument LowCardinality(String),
  mark_price Decimal(18, 4)
) ENGINE = MergeTree PARTITION BY toYYYYMM(mark_time) ORDER BY (mark_time, instrument)
SETTINGS non_replicated_deduplication_window = 1000;

-- Raw input: USD value of one unit of each currency, fixed on every whole hour.
CREATE TABLE IF NOT EXISTS {db}.fx_rates (
  rate_time DateTime('UTC'),
  currency LowCardinality(String),
  usd_rate Decimal(18, 8)
) ENGINE = MergeTree PARTITION BY toYYYYMM(rate_time) ORDER BY (rate_time, currency)
SETTINGS non_replicated_deduplication_window = 1000;

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

-- The demo's state: an append-only log of key = value, the newest value of a key wins.
CREATE TABLE IF NOT EXISTS {db}.demo_state (
  key LowCardinality(String),
  value String,
  written_at DateTime64(6, 'UTC') DEFAULT now64(6, 'UTC')
) ENGINE = MergeTree ORDER BY (key, written_at);

-- Every hour written to pnl_v1 or pnl_v2 by the seed or the live job: which writer, how, how many rows.
CREATE TABLE IF NOT EXISTS {db}.demo_writes (
  hour DateTime('UTC'),
  version LowCardinality(String),
  writer LowCardinality(String),
  mode Enum8('replace' = 1, 'append' = 2, 'insert' = 3),
  rows UInt64,
  written_at DateTime64(6, 'UTC') DEFAULT now64(6, 'UTC')
) ENGINE = MergeTree ORDER BY (version, hour, written_at);
