SELECT B.auction, B.price, B.bidder, B.date_time
FROM bid AS B
JOIN (
  SELECT max(price) AS maxprice, window_end AS date_time
  FROM TUMBLE(bid, date_time, INTERVAL '10' SECOND)
  GROUP BY window_end
) AS B1 ON B.price = B1.maxprice
WHERE B.date_time > B1.date_time - INTERVAL '10' SECOND AND B.date_time <= B1.date_time
