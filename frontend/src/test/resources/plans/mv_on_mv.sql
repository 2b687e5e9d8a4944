SELECT auction, count(*) AS bids, sum(price) AS total, min(price) AS low, max(price) AS high, avg(price) AS mean FROM q0 GROUP BY auction
