"""High Card, a toy game that lives only in the tests: it proves that a new game is a package
and one registry entry (``docs/architecture.md``, "How to add a game").

Each of 2 or 3 players is dealt 2 of the cards 0-5; in turn from the leader, each plays one
card to a trick, the highest card wins it and leads the next; after 2 tricks the round is
scored: each seat's value is its tricks won less the mean of the others'. A game is one round.

The package holds both parts a game has: the library's (``rules``, ``encoding``, ``config``,
``env``, ``vector``: what ``boon_env/games/<game>/`` holds) and the application's
(``evaluator``, ``training`` and ``spec``, whose ``TOY`` is the game's registry entry: what
``agents/games/<game>/`` holds). ``register(TOY)`` is all it takes to train it
(``train.py --game toy``), step it in Gymnasium (``boon_env/HighCard-v0``, ``make_vec`` on
``VectorToy``) and play it in the arena.
"""
