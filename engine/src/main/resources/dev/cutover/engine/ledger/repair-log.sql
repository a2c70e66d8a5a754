-- The history of every repair's state records, for people. {db} is the working database, quoted.

-- step: create the repair log
CREATE TABLE IF NOT EXISTS {db}.repair_log (
  target String, id String, version UInt64, phase String, at DateTime64(3, 'UTC'), record String)
ENGINE = MergeTree ORDER BY (target, version);
