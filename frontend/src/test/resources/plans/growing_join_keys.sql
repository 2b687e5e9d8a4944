SELECT c.auction, c.num, m.mx
FROM (SELECT auction, count(*) AS num FROM bid GROUP BY auction) AS c
JOIN (SELECT auction, min(price) AS mn, max(price) AS mx FROM bid GROUP BY auction) AS m
  ON c.auction = m.auction AND c.num = m.mn AND c.num >= m.mx
