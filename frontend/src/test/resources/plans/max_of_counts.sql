SELECT starttime, max(num) AS maxn, max(num % 7) AS maxmod
FROM (
  SELECT auction, count(*) AS num, window_start AS starttime
  FROM HOP(bid, date_time, INTERVAL '2' SECOND, INTERVAL '10' SECOND)
  GROUP BY window_start, auction
) AS counts
GROUP BY starttime
