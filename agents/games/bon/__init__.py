"""B.O.N's players and views: the heuristic, the seat's view, its arena records and its terminal."""
