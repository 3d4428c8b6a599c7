"""Why an action is illegal, in words: the reason codes the compiled checks return.

``legality.py`` returns a code per game (``R_LEGAL``, 0, when the action is legal) and the
engine turns it into the text here (``REASONS[code]``) for ``IllegalActionError`` and
``why_illegal``; the reference engine says the same things in ``reference/legality.py``.
"""

from __future__ import annotations

from handfoot_env import actions as A

# Reason codes: each names its text; ``REASONS[code]`` is the text (0 is legal).
REASONS: list[str] = []


def _reason(text: str) -> int:
    REASONS.append(text)
    return len(REASONS) - 1


R_LEGAL = _reason("legal")
R_OVER = _reason("the game is over")
R_DRAWN = _reason("you have already drawn this turn")
R_STOCK_LOW = _reason("the stock holds too few cards to draw")
R_TAKE_PHASE = _reason("the pile can only be taken instead of drawing")
R_TAKE_NONE = _reason("these rules do not allow taking the pile")
R_PILE_EMPTY = _reason("the discard pile is empty")
R_BLOCKED = _reason("the top card is not a natural: a wild or a three blocks the pile")
R_PILE_SMALL = _reason("the pile holds too few cards to be taken")
R_NOT_OPENED = _reason("you must open (lay down your first groups) before taking the pile")
R_NO_PAIR = _reason("taking the pile needs two naturals of the top card's rank in your hand")
R_TAKE_OVERFLOW = _reason("the top card and the pair would make your group more than a book")
R_TAKE_MINIMUM = _reason("the top card, your pair and your staged groups do not reach the opening minimum")
R_KEEP_TWO = _reason("playing from the foot you must keep at least 2 cards until your side can go out")
R_MUST_DISCARD = _reason("these rules require you to finish with a discard")
R_MELD_PHASE = _reason("draw or take the pile before melding")
R_GROUP_EXISTS = _reason("there is already an unfinished group of that rank; add to it instead")
R_NO_GROUP = _reason("there is no unfinished group of that rank to add to")
R_NOT_HELD = _reason("you do not hold the cards")
R_WILDS = _reason("the group would break the wild-card limit")
R_NO_DISCARD = _reason("staging these cards would leave no card to discard")
R_STRANDED = _reason("with the stock nearly empty this staging would leave you no legal draw or take")
R_DISCARD_PHASE = _reason("draw or take the pile before discarding")
R_NO_CARD = _reason("you hold no such card to discard")
R_CANNOT_GO_OUT = _reason("discarding your last card would go out, and your side lacks the books to go out")
R_TOO_BIG = _reason("a group holds at most a book's cards")
R_STOCK_EMPTY = _reason("the stock is empty: the top discard is taken together with one card from the stock")
R_FROZEN = _reason("a meld of yours one card short of a canasta is frozen: the top discard would complete it")
R_SUITED_DISCARD = _reason("with runs a natural's suit matters: discard it with the suited discard action")
R_NOT_SUITED = _reason("suited discards belong to rules with runs (house); discard by kind")
R_NO_RUNS = _reason("runs belong to the house preset (rules field runs)")
R_NO_TWOS_BOOKS = _reason("books of 2s belong to the house preset (rules field books_of_twos)")
R_RUN_EXISTS = _reason("there is already an unfinished run of that suit; extend it instead")
R_NO_RUN = _reason("there is no unfinished run of that suit to extend")
R_RUN_AT_FOUR = _reason("the run already starts at 4")
R_RUN_AT_ACE = _reason("the run already ends at the ace")
R_TWOS_EXISTS = _reason("there is already an unfinished book of 2s; add to it instead")
R_NO_TWOS = _reason("there is no unfinished book of 2s to add to")
R_OUT_OF_RANGE = _reason(f"the action is out of range: actions are 0..{A.NUM_ACTIONS - 1}")
R_TAKE_KIND = _reason("these rules do not take the pile this way")
R_FROZEN_PILE = _reason("the pile holds a wild card and is frozen: only a natural pair takes it")
R_NO_TABLE_GROUP = _reason("your side has no unfinished group of the top card's rank on the table")
R_NO_WILD_BOOKS = _reason("these rules have no wild books (rules field wild_books)")
R_WILD_BOOK_EXISTS = _reason("there is already an unfinished wild book; add to it instead")
R_NO_WILD_BOOK = _reason("there is no unfinished wild book to add to")
R_NO_THREES = _reason("these rules never meld black threes (rules field black_three_books)")
R_THREES_EXIST = _reason("there is already an unfinished group of black threes; add to it instead")
R_NO_THREES_GROUP = _reason("there is no unfinished group of black threes to add to")
R_NO_PERMISSION_RULE = _reason("these rules need no permission to go out (rules field permission_to_go_out)")
R_ASKED = _reason("you have asked your partner this turn already")
R_ASK_NOT_ON_FOOT = _reason("you may ask to go out once you play from your foot")
R_AWAIT_ANSWER = _reason("your partner is asked whether you may go out: only an answer (yes or no) may follow")
R_NO_QUESTION = _reason("no question stands: only a partner asked 'may I go out?' answers")
