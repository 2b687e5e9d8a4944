SELECT auction, bidder, price, date_time, extra FROM bid
