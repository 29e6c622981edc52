"""High Card, a toy game that lives only in the tests: it proves that a new game is a package
and one registry entry (``docs/architecture.md``).

Each of 2 or 3 players is dealt 2 of the cards 0-5; in turn from the leader, each plays one
card to a trick, the highest card wins it and leads the next; after 2 tricks the round is
scored: each seat's value is its tricks won less the mean of the others'. A game is one round.
"""
