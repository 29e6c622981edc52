"""B.O.N ("Boast or Nothing"), a trick-taking game of exact bids: see ``docs/bon.md``."""
