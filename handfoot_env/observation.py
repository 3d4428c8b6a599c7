"""The observation layout: one fixed-size float32 vector for every preset, defined here once.

The observation is *seat-relative*: seat slot 0 is the observer, then the other seats in
turn order; owner slot 0 is the observer's side (itself in ``classic``, its team in
``partnership``), then the other owners in turn order.  Slots beyond the table's players
or owners are zero.  It holds only what that seat may know: its own hand and staged
groups; every table; the discard pile (face up); hand and foot sizes; the cards each seat
was seen to take from the pile and has not shown since; red threes; scores; deal, minimum,
phase and stock size.  Never another hand, a foot's cards, or the stock.

Counts are raw numbers of cards; points are in hundreds; running totals in thousands.

| field            | size   | meaning                                                                |
|------------------|--------|------------------------------------------------------------------------|
| hand             | 15     | my hand, count per kind (Jk, 2, 3b, 3r, 4 .. A)                         |
| staged           | 15     | my staged (not yet laid down) cards, count per kind                    |
| staged_value     | 1      | points of my staged groups / 100                                        |
| on_foot          | 1      | 1 when I have picked up my foot                                        |
| seats            | 6 x 5  | per seat slot: present, partner, cards in hand, cards in unplayed foot, on foot |
| seat_known       | 6 x 15 | per seat slot: cards it surely holds, count per kind: taken from the pile (face up) and not seen to leave its hand since |
| owners           | 6 x 41 | per owner slot: present, opened, red threes, clean books, dirty books, melded points / 100, total / 1000, opening minimum / 100, then 11 ranks x (naturals, 2s, jokers) of the unfinished group |
| pile_size        | 1      | cards in the discard pile                                              |
| pile_top         | 15     | one-hot kind of the top discard (all zero when the pile is empty)      |
| pile_counts      | 15     | the whole pile, count per kind                                         |
| pile_take_window | 15     | the cards a take would bring to the hand, count per kind               |
| game             | 11     | phase draw, phase play, deal index, deals in the game, stock size, my minimum / 100, clean books needed, dirty books needed, partnership, players, my side has opened |
| house            | 144    | only rules with runs or books of 2s (``house``) fill it; zero elsewhere: see below |
| question         | 5      | permission to go out: a question stands, I asked it, my partner asked it (I answer), granted this turn, refused this turn |
| variation_rules  | 12     | the rules: wild books, a wild book to go out, wild book bonus / 1000, black-three groups, a book of 7s to go out (any, clean, dirty: one-hot), take by the table, take with a natural and a wild, a wild freezes the pile, partner on the foot first, permission to go out |
| variation_sides  | 6 x 6  | per owner slot: its unfinished wild book (2s, jokers), its wild books, its unfinished group of black threes, its books of 7s (clean, dirty) |
| variation_staged | 3      | my staged wild book (2s, jokers), my staged group of black threes |

The ``house`` block (offsets from ``HOUSE``); in ``house`` "clean books" above are red
canastas (clean books, books of 2s, runs) and "dirty books" black canastas:

| offset  | size  | meaning                                                                       |
|---------|-------|-------------------------------------------------------------------------------|
| 0-43    | 44    | my hand's naturals by suit: index 11 * suit + rank (suits clubs, diamonds, hearts, spades) |
| 44-47   | 4     | one-hot suit of the top discard (zero when it has no suit)                    |
| 48-55   | 8     | my staged unfinished run per suit: (length, low rank index)                  |
| 56      | 1     | cards in my staged unfinished book of 2s                                      |
| 57-110  | 6 x 9 | per owner slot: unfinished run per suit (length, low rank index), then cards in its unfinished book of 2s |
| 111-114 | 4     | the rules: runs, books of 2s, one card plus the top discard, frozen six-card melds |
| 115-143 | 29    | spare (zero)                                                                  |

**Layout version 2** (0.5.0) appended the fields from ``question`` on (the variations of
docs/rules.md); an index never changes its meaning, so a model of layout version 1 (the 599
numbers 0-598) reads a version 2 observation by its old columns.  Positions under the presets
leave the appended fields zero, except the rule flags of the variations they do not use
(also zero).
"""

from __future__ import annotations

from handfoot_env.cards import NUM_KINDS, NUM_NATURALS, NUM_SUITS

MAX_SEATS = 6
MAX_OWNERS = 6
SEAT_FIELDS = 5
GROUP_FIELDS = NUM_NATURALS * 3  # per rank: naturals, 2s, jokers of the unfinished group
OWNER_HEADER = 8
OWNER_FIELDS = OWNER_HEADER + GROUP_FIELDS
GAME_FIELDS = 11
HOUSE_FIELDS = 144
HOUSE_OWNER_FIELDS = 9
QUESTION_FIELDS = 5
VARIATION_RULE_FIELDS = 12
VARIATION_SIDE_FIELDS = 6
LAYOUT_VERSION = 2
OBS_SIZE_BY_VERSION = {1: 599}  # and the current version's: OBS_SIZE

FIELDS: tuple[tuple[str, int], ...] = (
    ("hand", NUM_KINDS),
    ("staged", NUM_KINDS),
    ("staged_value", 1),
    ("on_foot", 1),
    ("seats", MAX_SEATS * SEAT_FIELDS),
    ("seat_known", MAX_SEATS * NUM_KINDS),
    ("owners", MAX_OWNERS * OWNER_FIELDS),
    ("pile_size", 1),
    ("pile_top", NUM_KINDS),
    ("pile_counts", NUM_KINDS),
    ("pile_take_window", NUM_KINDS),
    ("game", GAME_FIELDS),
    ("house", HOUSE_FIELDS),
    # layout version 2: the variations
    ("question", QUESTION_FIELDS),
    ("variation_rules", VARIATION_RULE_FIELDS),
    ("variation_sides", MAX_OWNERS * VARIATION_SIDE_FIELDS),
    ("variation_staged", 3),
)

# Every value lies within these bounds: counts are at most the cards of 12 decks (648),
# points are in hundreds (at most 648 x 50 / 100) and totals in thousands (30 deals of at
# most about 30,000 points, or as many below zero).
OBS_LOW, OBS_HIGH = -1000.0, 1000.0

OFFSETS: dict[str, int] = {}
_offset = 0
for _name, _size in FIELDS:
    OFFSETS[_name] = _offset
    _offset += _size
OBS_SIZE = _offset
OBS_SIZE_BY_VERSION[LAYOUT_VERSION] = OBS_SIZE

HAND = OFFSETS["hand"]
STAGED = OFFSETS["staged"]
STAGED_VALUE = OFFSETS["staged_value"]
ON_FOOT = OFFSETS["on_foot"]
SEATS = OFFSETS["seats"]
SEAT_KNOWN = OFFSETS["seat_known"]
OWNERS = OFFSETS["owners"]
PILE_SIZE = OFFSETS["pile_size"]
PILE_TOP = OFFSETS["pile_top"]
PILE_COUNTS = OFFSETS["pile_counts"]
PILE_TAKE_WINDOW = OFFSETS["pile_take_window"]
GAME = OFFSETS["game"]
HOUSE = OFFSETS["house"]
HOUSE_HAND = HOUSE  # NUM_SUITS x NUM_NATURALS
HOUSE_PILE_SUIT = HOUSE_HAND + NUM_SUITS * NUM_NATURALS  # 4, one-hot
HOUSE_STAGED_RUNS = HOUSE_PILE_SUIT + NUM_SUITS  # 4 x (length, low)
HOUSE_STAGED_TWOS = HOUSE_STAGED_RUNS + 2 * NUM_SUITS
HOUSE_OWNERS = HOUSE_STAGED_TWOS + 1  # MAX_OWNERS x HOUSE_OWNER_FIELDS
HOUSE_RULES = HOUSE_OWNERS + MAX_OWNERS * HOUSE_OWNER_FIELDS
assert (HOUSE_PILE_SUIT, HOUSE_STAGED_RUNS, HOUSE_OWNERS, HOUSE_RULES) == (
    HOUSE + 44,
    HOUSE + 48,
    HOUSE + 57,
    HOUSE + 111,
)
assert HOUSE_OWNERS + MAX_OWNERS * HOUSE_OWNER_FIELDS <= HOUSE + HOUSE_FIELDS

# The named fields inside the blocks: the observers, the view and the agents use these names.
# One seat slot (offsets from SEATS + slot * SEAT_FIELDS):
SEAT_PRESENT, SEAT_PARTNER, SEAT_HELD, SEAT_FOOT, SEAT_ON_FOOT = range(SEAT_FIELDS)
# One owner slot's header (offsets from OWNERS + slot * OWNER_FIELDS); its groups follow, 3 a rank:
(
    OWNER_PRESENT,
    OWNER_OPENED,
    OWNER_RED_THREES,
    OWNER_CLEAN_BOOKS,
    OWNER_DIRTY_BOOKS,
    OWNER_MELDED,
    OWNER_TOTAL,
    OWNER_MINIMUM,
) = range(OWNER_HEADER)
OWNER_GROUPS = OWNER_HEADER
# The game block (indices into the observation):
(
    GAME_DRAW_PHASE,
    GAME_PLAY_PHASE,
    GAME_DEAL,
    GAME_DEALS,
    GAME_STOCK,
    GAME_MINIMUM,
    GAME_CLEAN_NEEDED,
    GAME_DIRTY_NEEDED,
    GAME_PARTNERSHIP,
    GAME_PLAYERS,
    GAME_OPENED,
) = range(GAME, GAME + GAME_FIELDS)
# One house owner slot (offsets from HOUSE_OWNERS + slot * HOUSE_OWNER_FIELDS): 4 runs, the book of 2s:
HOUSE_OWNER_RUNS, HOUSE_OWNER_TWOS = 0, 8
# The house rule flags (indices into the observation):
HOUSE_RULE_RUNS, HOUSE_RULE_TWOS_BOOKS, HOUSE_RULE_ONE_PLUS_DISCARD, HOUSE_RULE_FROZEN = range(
    HOUSE_RULES, HOUSE_RULES + 4
)
# The permission question (indices into the observation):
QUESTION = OFFSETS["question"]
QUESTION_STANDS, QUESTION_MINE, QUESTION_PARTNERS, QUESTION_GRANTED, QUESTION_REFUSED = range(
    QUESTION, QUESTION + QUESTION_FIELDS
)
# The variations' rule flags (indices into the observation):
(
    RULE_WILD_BOOKS,
    RULE_WILD_BOOK_TO_GO_OUT,
    RULE_WILD_BOOK_BONUS,  # / 1000
    RULE_BLACK_THREE_BOOKS,
    RULE_SEVENS_ANY,
    RULE_SEVENS_CLEAN,
    RULE_SEVENS_DIRTY,
    RULE_TAKE_ONTO_TABLE,
    RULE_TAKE_WITH_WILD,
    RULE_WILD_FREEZES_PILE,
    RULE_PARTNER_FOOT_FIRST,
    RULE_PERMISSION,
) = range(OFFSETS["variation_rules"], OFFSETS["variation_rules"] + VARIATION_RULE_FIELDS)
# One variation side slot (offsets from VARIATION_SIDES + slot * VARIATION_SIDE_FIELDS):
VARIATION_SIDES = OFFSETS["variation_sides"]
SIDE_WILD_TWOS, SIDE_WILD_JOKERS, SIDE_WILD_BOOKS, SIDE_THREES, SIDE_SEVENS_CLEAN, SIDE_SEVENS_DIRTY = range(
    VARIATION_SIDE_FIELDS
)
# My staged wild book and group of black threes (indices into the observation):
STAGED_WILD_TWOS, STAGED_WILD_JOKERS, STAGED_THREES = range(
    OFFSETS["variation_staged"], OFFSETS["variation_staged"] + 3
)


def layout_table() -> list[tuple[str, str, int]]:
    """Rows (name, index range, size) generated from :data:`FIELDS`."""

    def indices(name: str, size: int) -> str:
        first = OFFSETS[name]
        return str(first) if size == 1 else f"{first}-{first + size - 1}"

    return [(name, indices(name, size), size) for name, size in FIELDS]


def relative_seats(observer: int, num_players: int) -> list[int]:
    """Seats in slot order: the observer, then the others in turn order."""
    return [(observer + i) % num_players for i in range(num_players)]


def relative_owners(observer_owner: int, num_owners: int) -> list[int]:
    return [(observer_owner + i) % num_owners for i in range(num_owners)]


class ObservationView:
    """Named, read-only access to one observation vector (for scripted agents and tools)."""

    def __init__(self, obs):
        self.obs = obs

    @property
    def hand(self):
        """My hand, count per kind."""
        return self.obs[HAND : HAND + NUM_KINDS]

    @property
    def staged(self):
        return self.obs[STAGED : STAGED + NUM_KINDS]

    @property
    def staged_value(self) -> float:
        return float(self.obs[STAGED_VALUE]) * 100

    @property
    def on_foot(self) -> bool:
        return bool(self.obs[ON_FOOT])

    def seat(self, slot: int):
        """(present, partner, cards in hand, cards in unplayed foot, on foot) of seat slot ``slot``."""
        base = SEATS + slot * SEAT_FIELDS
        return self.obs[base : base + SEAT_FIELDS]

    def known(self, slot: int):
        """Cards seat slot ``slot`` surely holds, count per kind (taken from the pile, not shown since)."""
        base = SEAT_KNOWN + slot * NUM_KINDS
        return self.obs[base : base + NUM_KINDS]

    def side(self, slot: int):
        """Header of owner slot ``slot``: present, opened, red threes, clean books, dirty books,
        melded points / 100, total / 1000, minimum / 100."""
        base = OWNERS + slot * OWNER_FIELDS
        return self.obs[base : base + OWNER_HEADER]

    def groups(self, slot: int):
        """Unfinished groups of owner slot ``slot``: [11 ranks, (naturals, 2s, jokers)]."""
        base = OWNERS + slot * OWNER_FIELDS + OWNER_HEADER
        return self.obs[base : base + GROUP_FIELDS].reshape(NUM_NATURALS, 3)

    @property
    def suited_hand(self):
        """House: my naturals by suit, [4 suits, 11 ranks]."""
        return self.obs[HOUSE_HAND:HOUSE_PILE_SUIT].reshape(NUM_SUITS, NUM_NATURALS)

    def runs(self, slot: int):
        """House: unfinished run per suit of owner slot ``slot``: [4 suits, (length, low rank)]."""
        base = HOUSE_OWNERS + slot * HOUSE_OWNER_FIELDS
        return self.obs[base + HOUSE_OWNER_RUNS : base + HOUSE_OWNER_RUNS + 2 * NUM_SUITS].reshape(NUM_SUITS, 2)

    def twos_book(self, slot: int) -> int:
        """House: cards in the unfinished book of 2s of owner slot ``slot``."""
        return int(self.obs[HOUSE_OWNERS + slot * HOUSE_OWNER_FIELDS + HOUSE_OWNER_TWOS])

    @property
    def plays_runs(self) -> bool:
        """Whether these rules have runs (house)."""
        return bool(self.obs[HOUSE_RULE_RUNS])

    @property
    def books_of_twos(self) -> bool:
        return bool(self.obs[HOUSE_RULE_TWOS_BOOKS])

    @property
    def pile_top_suit(self) -> int | None:
        suits = self.obs[HOUSE_PILE_SUIT : HOUSE_PILE_SUIT + NUM_SUITS]
        return int(suits.argmax()) if suits.any() else None

    @property
    def staged_runs(self):
        return self.obs[HOUSE_STAGED_RUNS : HOUSE_STAGED_RUNS + 2 * NUM_SUITS].reshape(NUM_SUITS, 2)

    @property
    def pile_size(self) -> int:
        return int(self.obs[PILE_SIZE])

    @property
    def pile_top(self) -> int | None:
        top = self.obs[PILE_TOP : PILE_TOP + NUM_KINDS]
        return int(top.argmax()) if top.any() else None

    @property
    def pile_take_window(self):
        return self.obs[PILE_TAKE_WINDOW : PILE_TAKE_WINDOW + NUM_KINDS]

    @property
    def pile_counts(self):
        """The whole discard pile, count per kind."""
        return self.obs[PILE_COUNTS : PILE_COUNTS + NUM_KINDS]

    @property
    def phase(self) -> str:
        if self.obs[GAME_DRAW_PHASE]:
            return "draw"
        return "play" if self.obs[GAME_PLAY_PHASE] else "game_over"

    @property
    def stock_size(self) -> int:
        return int(self.obs[GAME_STOCK])

    @property
    def minimum(self) -> float:
        return float(self.obs[GAME_MINIMUM]) * 100

    @property
    def books_needed(self) -> tuple[int, int]:
        return int(self.obs[GAME_CLEAN_NEEDED]), int(self.obs[GAME_DIRTY_NEEDED])

    @property
    def partnership(self) -> bool:
        return bool(self.obs[GAME_PARTNERSHIP])

    @property
    def num_players(self) -> int:
        return int(self.obs[GAME_PLAYERS])

    @property
    def opened(self) -> bool:
        return bool(self.obs[GAME_OPENED])

    @property
    def num_owners(self) -> int:
        return self.num_players // 2 if self.partnership else self.num_players

    # ---------------------------------------------------------------- the variations
    @property
    def question_stands(self) -> bool:
        """A player asked its partner "may I go out?" and the partner has not answered yet."""
        return bool(self.obs[QUESTION_STANDS])

    @property
    def asked_by_partner(self) -> bool:
        """My partner asked me: I am to answer."""
        return bool(self.obs[QUESTION_PARTNERS])

    @property
    def permission(self) -> str:
        """This turn's question: ``not asked``, ``asked``, ``granted`` or ``refused``."""
        if self.obs[QUESTION_STANDS]:
            return "asked"
        if self.obs[QUESTION_GRANTED]:
            return "granted"
        return "refused" if self.obs[QUESTION_REFUSED] else "not asked"

    def rule(self, index: int) -> bool:
        """A variation's rule flag, by its index (``RULE_WILD_BOOKS``...)."""
        return bool(self.obs[index])

    def wild_book(self, slot: int):
        """(2s, jokers) of the unfinished wild book of owner slot ``slot``."""
        base = VARIATION_SIDES + slot * VARIATION_SIDE_FIELDS
        return self.obs[base + SIDE_WILD_TWOS : base + SIDE_WILD_JOKERS + 1]

    def wild_books(self, slot: int) -> int:
        return int(self.obs[VARIATION_SIDES + slot * VARIATION_SIDE_FIELDS + SIDE_WILD_BOOKS])

    def threes(self, slot: int) -> int:
        """Cards in the unfinished group of black threes of owner slot ``slot``."""
        return int(self.obs[VARIATION_SIDES + slot * VARIATION_SIDE_FIELDS + SIDE_THREES])

    def sevens_books(self, slot: int) -> tuple[int, int]:
        """(clean, dirty) books of 7s of owner slot ``slot``."""
        base = VARIATION_SIDES + slot * VARIATION_SIDE_FIELDS
        return int(self.obs[base + SIDE_SEVENS_CLEAN]), int(self.obs[base + SIDE_SEVENS_DIRTY])

    def next_side_slot(self) -> int:
        """Owner slot of the next player to move after me."""
        return 1  # the next seat is always the first other side, in both presets
