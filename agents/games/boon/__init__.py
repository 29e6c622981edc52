"""Boon's players and views: the heuristic, search, the reading of the play, bidding by
holdings, the pick advice, its arena records and its terminal."""
