-- the desk's
SELECT 1 # it's
// it's
/* a /* it's */ b */ FROM {clicks} WHERE ts >= {window_start} AND ts < {window_end:DateTime}