"""# The batch engines' shared base: B tables of one game, stepped together

Every game's batch engine (``VectorBoon``, ``VectorBon``, ``VectorBoyn``) is a subclass of
:class:`VectorEngine`, which holds everything that does not depend on the rules: checking the
engine's arguments, actions, table selections, observers and deal lists; the illegal-action
message; ``random_actions``; the ``(B, A)`` int8 masks unpacked from the legal bitmasks; the
finished-rounds record; and the bookkeeping of ``reset`` and ``step``. The subclass brings the
rules, the state arrays and the observation encoder (see :class:`VectorEngine` for the hooks).

Legal actions are bitmasks: ``(B,)`` int64 where the game's actions fit one word (at most 36
of them, the width :func:`random_bits` selects from in three 12-bit chunks), else ``(B, W)``
int64 words, action ``a`` being bit ``a % 64`` of word ``a // 64``.

```python
>>> import numpy as np
>>> masks = np.array([0b1011, 1 << 33])
>>> random_bits(masks, np.array([0.5, 0.99]), 34).tolist()  # the 2nd of 3 set bits; the only one
[1, 33]
>>> unpack_masks(masks, 4).tolist()
[[1, 1, 0, 1], [0, 0, 0, 0]]

```

numpy only: the engines are the library's fast path, and its rules import with numpy alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from typing import Any, ClassVar, TypeVar

import numpy as np

__all__ = [
    "MASK_WORD",
    "VectorEngine",
    "bit_counts",
    "check_counts",
    "check_seat",
    "index_array",
    "is_integer",
    "prefixed",
    "random_bits",
    "rotate",
    "select_bits",
    "unpack_bits",
    "unpack_masks",
]

T = TypeVar("T")
Outputs = tuple[np.ndarray | None, np.ndarray, np.ndarray]
StepOutputs = tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

MASK_WORD = 64  # bits per legal-mask word

# ----------------------------------------------------------------------------- bit helpers
# Bit counting and selection for one-word masks, by 12-bit chunks (three cover 36 actions):
# the number of set bits of each chunk value, and the position of its k-th lowest set bit.
_CHUNK = 12
_CHUNK_MASK = (1 << _CHUNK) - 1
_ONE_WORD_WIDTH = 3 * _CHUNK
_CHUNK_COUNT = np.array([v.bit_count() for v in range(1 << _CHUNK)], dtype=np.int64)
_CHUNK_SELECT = np.array(  # flat: [value * _CHUNK + k]
    [
        [b for b in range(_CHUNK) if v >> b & 1] + [0] * (_CHUNK - v.bit_count())
        for v in range(1 << _CHUNK)
    ],
    dtype=np.int64,
).ravel()
# The same by bytes, for masks of several words.
_BYTE_COUNT = np.array([v.bit_count() for v in range(256)], dtype=np.int64)
_BYTE_SELECT = np.array(
    [[b for b in range(8) if v >> b & 1] + [0] * (8 - v.bit_count()) for v in range(256)],
    dtype=np.int64,
).ravel()


def _chunks(masks: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
    # One-word masks: their three 12-bit chunks. Several words: their first bytes (enough for
    # ``width`` bits), bytes down the first axis so that running counts are one cheap cumsum.
    if masks.ndim == 1:
        return masks & _CHUNK_MASK, masks >> _CHUNK & _CHUNK_MASK, masks >> 2 * _CHUNK
    octets = masks.view(np.uint8).reshape(len(masks), -1)[:, : -(-width // 8)]
    return (octets.T,)


def _count(chunks: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    if len(chunks) == 3:
        low, mid, high = chunks
        below_mid = _CHUNK_COUNT[low]
        below_high = below_mid + _CHUNK_COUNT[mid]
        return below_mid, below_high, below_high + _CHUNK_COUNT[high]
    return (_BYTE_COUNT[chunks[0]].cumsum(axis=0),)


def bit_counts(masks: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
    """Running counts of the set bits of each mask, chunk by chunk: what :func:`select_bits`
    needs besides the masks. ``masks`` is ``(k,)`` int64 below ``2**36`` (three (k,) counts,
    by 12-bit chunks), or ``(k, W)`` int64 words whose bits from ``width`` up are 0 (one
    (bytes, k) count, by bytes)."""
    return _count(_chunks(masks, width))


def select_bits(
    masks: np.ndarray,
    counts: tuple[np.ndarray, ...] | None,
    uniforms: np.ndarray,
    width: int,
) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """A set bit of each mask, the ``floor(u * set bits)``-th lowest for its uniform ``u`` in
    [0, 1), and the masks' :func:`bit_counts` it used: ``counts`` if given (an engine keeps
    them between steps), else counted here."""
    chunks = _chunks(masks, width)
    if counts is None:
        counts = _count(chunks)
    return _select(chunks, counts, uniforms), counts


def _select(
    chunks: tuple[np.ndarray, ...], counts: tuple[np.ndarray, ...], uniforms: np.ndarray
) -> np.ndarray:
    if len(chunks) == 3:
        # Find the chunk that holds the chosen bit, then select it within the chunk.
        low, mid, high = chunks
        below_mid, below_high, total = counts
        nth = (uniforms * total).astype(np.int64)
        in_low, in_mid = nth < below_mid, nth < below_high
        chunk = np.where(in_low, low, np.where(in_mid, mid, high))
        before = np.where(in_low, 0, np.where(in_mid, below_mid, below_high))
        shift = np.where(in_low, 0, np.where(in_mid, _CHUNK, 2 * _CHUNK))
        return shift + _CHUNK_SELECT[chunk * _CHUNK + nth - before]
    (octets,), (counts,) = chunks, counts  # type: ignore[assignment]
    nth = (uniforms * counts[-1]).astype(np.int64)
    passed = counts <= nth  # the bytes wholly before the chosen bit
    byte = passed.sum(axis=0)
    before = (counts * passed).max(axis=0)
    chosen = octets[byte, np.arange(octets.shape[1])].astype(np.int64)
    return byte * 8 + _BYTE_SELECT[chosen * 8 + nth - before]


def random_bits(masks: np.ndarray, uniforms: np.ndarray, width: int) -> np.ndarray:
    """A set bit of each mask chosen by a uniform in [0, 1) (see :func:`select_bits`): a
    uniformly random legal action per table, drawn from the caller's uniforms."""
    return select_bits(masks, None, uniforms, width)[0]


def rotate(bits: np.ndarray, shift: np.ndarray, width: int) -> np.ndarray:
    """Rotate ``width``-bit fields right by ``shift``: seat-indexed bits become observer-first."""
    return ((bits >> shift) | (bits << (width - shift))) & ((1 << width) - 1)


def unpack_bits(words: np.ndarray, width: int) -> np.ndarray:
    """Bits 0 .. width - 1 of each int64 as uint8 0/1 along a new last axis."""
    as_bytes = words.astype("<i8", copy=False).view(np.uint8).reshape(*words.shape, 8)
    return np.unpackbits(as_bytes, axis=-1, count=width, bitorder="little")


def unpack_masks(legal: np.ndarray, num_actions: int) -> np.ndarray:
    """The ``(k, num_actions)`` int8 masks of ``(k,)`` one-word or ``(k, W)`` legal bitmasks."""
    # Each row's words are little-endian bytes; their first num_actions bits are the actions.
    return np.unpackbits(
        legal.astype("<i8", copy=False).view(np.uint8).reshape(len(legal), -1),
        axis=1,
        count=num_actions,
        bitorder="little",
    ).view(np.int8)


# ----------------------------------------------------------------------------- argument checks
def is_integer(value: object) -> bool:
    """Whether ``value`` is a Python or numpy integer (``bool`` is not)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_seat(where: str, seat: object, num_players: int) -> int:
    """``seat`` if it is a seat 0 .. num_players - 1; else ``ValueError`` naming ``where``."""
    if not is_integer(seat) or not 0 <= seat < num_players:  # type: ignore[operator]
        raise ValueError(f"{where} must be a seat 0-{num_players - 1}, got {seat!r}")
    return int(seat)  # type: ignore[call-overload]


def check_counts(num_tables: int, **lists: Sequence[Any]) -> None:
    """``ValueError`` unless every list holds one entry per table (``reset_deals``'s lists)."""
    if all(len(values) == num_tables for values in lists.values()):
        return
    counts = [f"{len(values)} {name}" for name, values in lists.items()]
    got = ", ".join(counts[:-1]) + f" and {counts[-1]}" if len(counts) > 1 else counts[0]
    raise ValueError(f"got {got}, expected {num_tables} of each (one per table)")


def prefixed(where: str, check: Callable[[], T]) -> T:
    """``check()``, its ``TypeError`` or ``ValueError`` raised again as a ``ValueError`` that
    starts with ``where`` (``"deals[2]: ..."``)."""
    try:
        return check()
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None


def index_array(name: str, values: Any, size: int) -> np.ndarray:
    """``values`` as a 1-D int64 array of indices 0 .. size - 1; else ``ValueError``."""
    array = np.asarray(values)
    if array.shape == (0,):
        return np.zeros(0, dtype=np.int64)  # an empty list is float64 to numpy
    if array.ndim != 1 or array.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a 1-D integer array, got {array!r}")
    array = array.astype(np.int64, copy=False)
    if array.size and (array.min() < 0 or array.max() >= size):
        raise ValueError(f"{name} must lie in 0-{size - 1}, got {array.tolist()}")
    return array


# ----------------------------------------------------------------------------- the base
class VectorEngine:
    """``num_tables`` tables of one game, ``config.num_players`` seats each, stepped together;
    see the module docstring and a game's engine (``boon_env.games.<game>.vector``).

    Args:
        num_tables: B, the number of tables (>= 1).
        config: makes the game's frozen config (which validates ``num_players`` and the rules
            options), called after ``num_tables`` and the flags are checked.
        seed: seed of the engine's own ``numpy.random.Generator`` (``None``: fresh entropy).
        observations: build the acting seats' observations in ``reset`` and ``step``; with
            ``False`` they return ``None`` in place of ``obs`` (masks only, for rollouts).
        flags: the game's other True/False options, checked and kept as attributes.

    A game's engine provides:

    - ``num_actions`` (class attribute) and ``action_name(action)`` (a static method);
    - ``_start_tables(given)``: allocate the state arrays (``_current`` the acting seats,
      ``_legal`` the legal bitmasks, ``_finished`` the :attr:`finished` record) and start every
      table's first round from ``given`` (what ``_check_deal_dicts`` returned) or, for ``None``,
      from the generator;
    - ``_check_deal_dicts(deals)``: the checked ``reset(deals=...)`` argument, in the form
      ``_start_tables`` takes; and ``_deal_of(table)``, the dict ``deal(table)`` returns;
    - ``_apply(rows, actions)``: the acting seats of tables ``rows`` take ``actions``, ending
      rounds through :meth:`_record_rounds`;
    - ``_update_legal(rows)``: the legal bitmasks of ``rows`` (:meth:`_selection` makes a
      full-table update a slice);
    - ``_encode(rows, seats)``: the observations of ``seats`` at tables ``rows``.

    ``_decision_note(table)`` may add to the illegal-action message (Boon names the phase).
    """

    num_actions: ClassVar[int]

    def __init__(
        self,
        num_tables: int,
        config: Callable[[], Any],
        seed: int | None = None,
        observations: bool = True,
        **flags: bool,
    ) -> None:
        if not is_integer(num_tables) or num_tables < 1:
            raise ValueError(f"num_tables must be an integer >= 1, got {num_tables!r}")
        for name, value in {"observations": observations, **flags}.items():
            if type(value) is not bool:
                raise ValueError(f"{name} must be True or False, got {value!r}")
        for name, value in flags.items():
            setattr(self, name, value)
        self.config = config()
        self.num_tables = num_tables = int(num_tables)
        self.num_players = n = int(self.config.num_players)
        self.observations = observations
        self._rng = np.random.default_rng(seed)
        self._rows = np.arange(num_tables, dtype=np.int64)
        # Flat index of (table, seat) into the (B, n) arrays, for one-seat-per-table access.
        self._row_base = self._rows * n
        # Seat arithmetic by table lookup (integer % is several times slower in numpy):
        # the seat to the left, a seat relative to an observer, every seat in relative order.
        seats = np.arange(n, dtype=np.int64)
        self._left_of = (seats + 1) % n
        self._relative = np.arange(-n, n, dtype=np.int64) % n  # [a - b + n] = (a - b) % n
        self._rotation = (seats[:, None] + seats) % n  # [seat, r] = absolute seat of row r
        self._one_word = self.num_actions <= MASK_WORD
        assert not self._one_word or self.num_actions <= _ONE_WORD_WIDTH
        # What the legal bitmasks give, kept while only some tables move (None: recompute).
        self._masks: np.ndarray | None = None
        self._counts: tuple[np.ndarray, ...] | None = None
        self._ready = False

    # ------------------------------------------------------------------------- public state
    @property
    def seat(self) -> np.ndarray:
        """The acting seat of every table, (B,) int64."""
        self._check_ready()
        return self._current.copy()

    @property
    def legal(self) -> np.ndarray:
        """The acting seats' legal actions as bitmasks: (B,) int64 where the actions fit one
        word, else (B, W) int64 with action ``a`` at bit ``a % 64`` of word ``a // 64``."""
        self._check_ready()
        return self._legal.copy()

    @property
    def finished(self) -> Any:
        """The last finished round of every table (the game's ``FinishedRounds``): rows of
        tables that never finished one hold their initial values (``rounds == 0``); rows where
        ``step`` returned ``done`` describe the round that just ended."""
        self._check_ready()
        record = self._finished
        return type(record)(**{f.name: getattr(record, f.name).copy() for f in fields(record)})

    @property
    def truncated(self) -> np.ndarray:
        """Which tables' last finished round was cut short (a turn limit) rather than ended by
        the rules, (B,) bool. All ``False`` here: a game whose rounds can be cut short says
        which were."""
        self._check_ready()
        return np.zeros(self.num_tables, dtype=bool)

    def action_masks(self) -> np.ndarray:
        """The acting seats' legal-action masks, (B, num_actions) int8."""
        self._check_ready()
        if self._masks is not None:
            return self._masks.copy()
        return unpack_masks(self._legal, self.num_actions)

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action of every acting seat, (B,) int64, drawn from
        ``rng`` (random players, rollouts): one uniform per table, whichever tables move."""
        self._check_ready()
        uniforms = rng.random(self.num_tables)
        actions, self._counts = select_bits(self._legal, self._counts, uniforms, self.num_actions)
        return actions

    def deal(self, table: int) -> dict[str, Any]:
        """The current round of ``table`` as dealt, the form :meth:`reset` takes in ``deals``
        (the game's engine lists its keys)."""
        self._check_ready()
        if not is_integer(table) or not 0 <= table < self.num_tables:
            raise ValueError(f"table must be an integer 0-{self.num_tables - 1}, got {table!r}")
        return self._deal_of(int(table))

    def observe(self, tables: Any = None, seats: Any = None) -> np.ndarray:
        """The observations of ``seats`` (default: the acting seats) at ``tables`` (default:
        every table), shape (len(tables), OBS_SIZE) float32, bit for bit the game's
        ``encode`` (see the game's engine). Use it to observe only the tables where a policy
        acts.

        Raises:
            ValueError: ``tables`` or ``seats`` is not a 1-D integer array in range, or they
                differ in length.
        """
        self._check_ready()
        rows = self._rows if tables is None else index_array("tables", tables, self.num_tables)
        if seats is None:
            return self._encode(rows, self._current[rows])
        who = index_array("seats", seats, self.num_players)
        if who.shape != rows.shape:
            raise ValueError(f"seats must have one entry per table ({rows.size}), got {who.size}")
        return self._encode(rows, who)

    # ------------------------------------------------------------------------- reset and step
    def reset(
        self, seed: int | None = None, deals: Sequence[dict[str, Any]] | None = None
    ) -> Outputs:
        """Deal every table a new first round; returns ``(obs, mask, seat)``.

        Args:
            seed: reseed the engine's generator first (``None``: keep drawing from it).
            deals: one deal dict per table to start from (the form :meth:`deal` returns);
                without it, every first round is drawn from the generator. Later rounds are
                always drawn.

        Raises:
            ValueError: ``deals`` is not one valid deal per table (naming the table and what
                is wrong); the engine is then left as it was.
        """
        given = self._check_deal_dicts(deals) if deals is not None else None
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        return self._deal_tables(given)

    def _deal_tables(self, given: Any) -> Outputs:
        """Start every table's first round from checked deals ``given`` (``None``: from the
        generator); ``reset``'s and ``reset_deals``'s last step, once nothing can fail."""
        self._begin_step()  # a round may end as it is dealt (BOYN's max_turns)
        self._start_tables(given)
        self._ready = True
        self._update_legal(self._rows)
        return self._outputs(self._rows)

    def step(self, actions: Any, tables: Any = None) -> StepOutputs:
        """Apply every table's action; returns ``(obs, mask, seat, rewards, done)``.

        ``rewards`` (B, n) float32 holds every seat's reward on tables whose round just ended
        (``done``), else 0. Those tables are dealt their next round, and ``obs``, ``mask`` and
        ``seat`` are that round's first decision.

        ``tables``, a (B,) bool array, steps only the tables where it is true: the others keep
        their state (their entries of ``actions`` are ignored, ``done`` is false), and the
        step's work is mostly proportional to the tables that move. A trainer uses it to let
        the other seats act until every table is back at its learner's turn.

        Raises:
            ValueError: ``actions`` is not a (B,) integer array, ``tables`` not a (B,) bool
                array, or an action is illegal on some stepped table (naming the table, the
                action and the legal ones); no table changes.
        """
        self._check_ready()
        rows = self._rows if tables is None else np.flatnonzero(self._check_tables(tables))
        actions = self._check_actions(actions, rows)
        self._begin_step()
        if rows is self._rows:
            self._apply(rows, actions)
        elif rows.size:
            self._apply(rows, actions[rows])
        self._update_legal(rows)
        return (*self._outputs(rows), self._rewards, self._done)

    def _begin_step(self) -> None:
        self._rewards = np.zeros((self.num_tables, self.num_players), dtype=np.float32)
        self._done = np.zeros(self.num_tables, dtype=bool)

    def _selection(self, rows: np.ndarray) -> slice | np.ndarray:
        """``rows`` as an index: a slice when every table is chosen (views, no gathering)."""
        return slice(None) if rows is self._rows else rows

    def _store_legal(self, rows: np.ndarray, legal: np.ndarray) -> None:
        """Make ``legal`` the one-word legal bitmasks of ``rows`` (every table: no copy)."""
        if rows is self._rows:
            self._legal = legal
        else:
            self._legal[rows] = legal

    def _record_rounds(self, rows: np.ndarray, values: np.ndarray, **columns: Any) -> None:
        """Record the rounds just finished at ``rows``: ``values`` per seat (also the step's
        rewards) and the game's other record ``columns``."""
        record = self._finished
        record.rounds[rows] += 1
        for name, column in columns.items():
            getattr(record, name)[rows] = column
        record.values[rows] = values
        self._rewards[rows] = values
        self._done[rows] = True

    def _outputs(self, rows: np.ndarray) -> Outputs:
        """``(obs, mask, seat)`` after the tables ``rows`` moved."""
        obs = self._encode(self._rows, self._current) if self.observations else None
        if rows is self._rows:
            # Every table moved: unpack every mask, and keep nothing for the next step.
            self._masks = self._counts = None
            mask = unpack_masks(self._legal, self.num_actions)
        else:
            # Some tables moved: update what is kept for them only.
            if self._masks is None:
                self._masks = unpack_masks(self._legal, self.num_actions)
            elif rows.size:
                self._masks[rows] = unpack_masks(self._legal[rows], self.num_actions)
            if self._counts is not None and rows.size:
                counts = bit_counts(self._legal[rows], self.num_actions)
                for kept, count in zip(self._counts, counts, strict=True):
                    kept[..., rows] = count
            mask = self._masks.copy()
        return obs, mask, self._current.copy()

    def _next_in_trick(self, rows: np.ndarray, seat: np.ndarray) -> None:
        """After ``seat`` played a card at tables ``rows``: the seat to its left acts next, and
        the tricks that came round to their leader are finished (trick-taking engines: their
        ``_leader`` per table and ``_finish_tricks(rows)``, whose winner leads next)."""
        after = self._left_of[seat]
        self._current[rows] = after
        # The trick is complete when play has come round to its leader again.
        self._finish_tricks(rows[after == self._leader[rows]])

    def _finish_tricks(self, rows: np.ndarray) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------------- checks
    def _check_ready(self) -> None:
        if not self._ready:
            raise RuntimeError("call reset() before using the tables")

    def _check_tables(self, tables: Any) -> np.ndarray:
        mask = np.asarray(tables)
        if mask.shape != (self.num_tables,) or mask.dtype != bool:
            raise ValueError(
                f"tables must be a ({self.num_tables},) bool array, one entry per table, got "
                f"shape {mask.shape} and dtype {mask.dtype}"
            )
        return mask

    def _check_actions(self, actions: Any, rows: np.ndarray) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_tables,):
            raise ValueError(
                f"actions must have shape ({self.num_tables},), one per table, got {array.shape}"
            )
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {array.dtype}")
        array = array.astype(np.int64, copy=False)
        every = rows is self._rows
        moves = array if every else array[rows]
        legal = self._legal if every else self._legal[rows]
        if self._one_word:
            # numpy shifts by a negative or too large amount give 0: such actions are illegal.
            ok = (legal >> moves) & 1
        else:
            in_range = (moves >= 0) & (moves < self.num_actions)
            known = np.where(in_range, moves, 0)
            word = legal[np.arange(len(known)), known // MASK_WORD]
            ok = in_range & ((word >> (known % MASK_WORD)) & 1).astype(bool)
        if not ok.all():
            raise ValueError(self._illegal_message(array, rows[ok == 0]))
        return array

    def _illegal_message(self, actions: np.ndarray, bad: np.ndarray) -> str:
        table = int(bad[0])
        action = int(actions[table])
        count = self.num_actions
        name = self.action_name(action) if 0 <= action < count else None
        mask = unpack_masks(self._legal[table : table + 1], count)[0]
        legal = ", ".join(f"{a} ({self.action_name(a)})" for a in np.flatnonzero(mask).tolist())
        others = f"; {bad.size - 1} more table(s) got an illegal action" if bad.size > 1 else ""
        return (
            f"illegal action {action} ({name or f'not an action id 0-{count - 1}'}) "
            f"at table {table} for seat {int(self._current[table])}"
            f"{self._decision_note(table)}; legal actions: {legal}{others}. "
            "No table was changed."
        )

    def _decision_note(self, table: int) -> str:
        """More about ``table``'s decision for the illegal-action message (" in phase X")."""
        return ""

    def _deal_dicts(self, deals: Any, keys: Sequence[str]) -> Iterator[tuple[int, dict[str, Any]]]:
        """``(table, deal)`` for each of ``reset``'s ``deals``, each checked to be a dict with
        exactly ``keys`` as it comes; the list's type and length are checked first."""
        b = self.num_tables
        if isinstance(deals, (str, bytes, dict)) or not isinstance(deals, Sequence):
            raise ValueError(f"deals must be a sequence of {b} deal dicts, got {deals!r}")
        if len(deals) != b:
            raise ValueError(f"deals has {len(deals)} entries, expected {b} (one per table)")
        for table, deal in enumerate(deals):
            if not isinstance(deal, dict) or set(deal) != set(keys):
                names = ", ".join(repr(key) for key in keys)
                raise ValueError(
                    f"deals[{table}] must be a dict with exactly the keys {names}, got {deal!r}"
                )
            yield table, deal

    # ------------------------------------------------------------------------- the game's part
    @staticmethod
    def action_name(action: int) -> str:
        """The name of action id ``action`` (the game's ``action_name``)."""
        raise NotImplementedError

    def _start_tables(self, given: Any) -> None:
        raise NotImplementedError

    def _check_deal_dicts(self, deals: Any) -> Any:
        raise NotImplementedError

    def _deal_of(self, table: int) -> dict[str, Any]:
        raise NotImplementedError

    def _apply(self, rows: np.ndarray, actions: np.ndarray) -> None:
        raise NotImplementedError

    def _update_legal(self, rows: np.ndarray) -> None:
        raise NotImplementedError

    def _encode(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        raise NotImplementedError
