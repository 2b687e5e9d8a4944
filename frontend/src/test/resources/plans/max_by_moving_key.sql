SELECT mn, max(mx) AS m
FROM (SELECT auction, min(price) AS mn, max(price) AS mx FROM bid GROUP BY auction) AS a
GROUP BY mn
