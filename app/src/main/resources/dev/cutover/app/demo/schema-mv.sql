-- The demo world whose live writer is a materialized view: every insert into trades appends, through pnl_v1_mv, a
-- partial hourly aggregate to pnl_v1, a SummingMergeTree that folds them as it merges. The view has the fee bug.
-- {db} is the world's database (Atomic). Statements are separated by a semicolon at the end of a line.

-- Derived: hourly cash PnL per book and instrument, in the instrument's currency, as the view appends it.
CREATE TABLE IF NOT EXISTS {db}.pnl_v1 (
  hour DateTime('UTC'),
  book LowCardinality(String),
  instrument LowCardinality(String),
  currency LowCardinality(String),
  quantity Int64,
  notional Decimal(38, 4),
  fees Decimal(38, 4),
  cash_pnl Decimal(38, 4),
  trade_count UInt64
) ENGINE = SummingMergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, book, instrument, currency);

-- Derived, corrected: written by the corrected view from its boundary on, and by the backfill below it.
CREATE TABLE IF NOT EXISTS {db}.pnl_v2 AS {db}.pnl_v1;

-- What consumers read (they sum per hour and key, as readers of a SummingMergeTree must). The cutover swaps it to v2.
CREATE VIEW IF NOT EXISTS {db}.pnl AS
SELECT hour, book, instrument, currency, quantity, notional, fees, cash_pnl, trade_count FROM {db}.pnl_v1;

-- Raw input of this world: the fee of every fee-paying trade, charged by the broker's feed in an insert of its own
-- after the trades' (internal crossing books pay none). The trades' own fee column is not what this world's PnL
-- reads: its fees come from this feed, through a view of their own.
CREATE TABLE IF NOT EXISTS {db}.fees (
  trade_id UInt64,
  event_time DateTime('UTC'),
  book LowCardinality(String),
  instrument LowCardinality(String),
  currency LowCardinality(String),
  fee Decimal(18, 4)
) ENGINE = MergeTree PARTITION BY toYYYYMM(event_time) ORDER BY (event_time, book, instrument, trade_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- The live writers of v1, one view per source, each appending partial rows that pnl_v1 folds: the trades' positions
-- and cash, and the fees. The fees view has the bug: fees are added to the cash PnL instead of subtracted.
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.pnl_v1_mv TO {db}.pnl_v1 AS
SELECT hour, book, instrument, currency, net_quantity AS quantity, traded AS notional, toDecimal128(0, 4) AS fees,
  cash AS cash_pnl, trade_count
FROM (
  SELECT
    toStartOfHour(event_time) AS hour,
    book,
    instrument,
    currency,
    sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS net_quantity,
    sum(toInt64(quantity) * price) AS traded,
    sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) AS cash,
    count() AS trade_count
  FROM {db}.trades
  GROUP BY hour, book, instrument, currency
);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.pnl_v1_fees_mv TO {db}.pnl_v1 AS
SELECT
  toStartOfHour(event_time) AS hour,
  book,
  instrument,
  currency,
  toInt64(0) AS quantity,
  toDecimal128(0, 4) AS notional,
  sum(fee) AS fees,
  sum(fee) AS cash_pnl,
  toUInt64(0) AS trade_count
FROM {db}.fees
GROUP BY hour, book, instrument, currency;
