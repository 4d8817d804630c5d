"""Money: the market track, bank loans and the wealth table (seed 002, Market, Bank Loans,
Victory Conditions).  All amounts in millions."""

from __future__ import annotations


from dipsat.errors import DipsatError
from dipsat.records import dataclass

from .board import RESOURCES, Resource
from .dice import Dice
from .options import SupremacyOptions
from .state import MARKET_VALUES, CompanyCard, Loan, State

# Bank Loans: loan amount (billions) -> interest due in Stage 1 (millions)
INTEREST_TABLE: dict[int, int] = {1: 50, 2: 100, 3: 150, 4: 200, 5: 500, 6: 600, 7: 700, 8: 1200,
                                  9: 1400, 10: 1800, 11: 2400, 12: 3000}
LOAN_PER_COMPANY = 500  # "up to a maximum of $500 million per untapped, face up company"
WEALTH_COMPANY, WEALTH_FORCE, WEALTH_NUKE, WEALTH_LSTAR = 100, 50, 250, 500  # the wealth table


class EconomyError(DipsatError):
    """A market or loan action the rules do not allow."""


def interest_due(principal: int, opts: SupremacyOptions) -> int:
    """The Stage 1 interest of a loan of ``principal`` millions (Bank Loan Interest Table)."""
    if principal <= 0:
        return 0
    row = principal // 1000 + (1 if principal % 1000 and opts.loan_interest_rounding == "up" else 0)
    if row <= 12:
        return INTEREST_TABLE.get(row, 0)
    rule = opts.need("loan_beyond_table", f"the interest of a loan of ${principal} million (the Bank Loan "
                     "Interest Table ends at $12 billion)")
    last = INTEREST_TABLE[12]
    return last if rule == "last_row" else last + (row - 12) * (last - INTEREST_TABLE[11])


def loan_limit(state: State, power: str) -> int:
    h = state.holdings(power)
    n = sum(1 for c in h.companies if c.face_up and not c.tapped)
    return LOAN_PER_COMPANY * n


def take_loan(state: State, power: str, amount: int, opts: SupremacyOptions) -> list[str]:
    """Take a loan; returns the companies it taps (option ``tapping``: the seed never says what taps a
    company, only that untapped face-up ones back loans and count in the wealth table)."""
    h = state.holdings(power)
    if h.loan is not None:
        raise EconomyError(f"{power} already has a bank loan (${h.loan.principal} million); "
                           "'a player who does not already have a bank loan may take out a loan'")
    limit = loan_limit(state, power)
    if amount <= 0 or amount > limit:
        raise EconomyError(f"{power} may borrow up to ${limit} million ($500 million per untapped, face-up "
                           f"company), not ${amount} million")
    rule = opts.need("tapping", f"a bank loan of ${amount} million (whether it taps the companies behind it)")
    tapped: list[str] = []
    if rule == "loan_collateral":
        need = -(-amount // LOAN_PER_COMPANY)
        for c in h.companies:
            if len(tapped) < need and c.face_up and not c.tapped:
                c.tapped = True
                tapped.append(c.id)
    h.loan = Loan(principal=amount, original=amount, collateral=tapped or None)
    h.money += amount
    return tapped


def prospect(state: State, power: str, opts: SupremacyOptions, dice: Dice | None = None) -> str:
    """Stage 8, one prospect (option ``prospecting``): with 'draw', one card drawn at random from
    the resource deck (Setting Up 4: the companies nobody was dealt) joins the prospector's hand
    face up and untapped (Setting Up 3: companies 'begin face up and untapped').  Without given
    dice the draw comes from the seeded random source, keyed by the turn, the player and the size
    of the deck (so each draw of a turn is its own)."""
    rule = opts.need("prospecting", f"{power}'s prospect (Stage 8)")
    if rule == "no_find":
        return "found nothing (prospecting 'no_find')"
    if not state.deck:
        return "found nothing: the resource deck is empty"
    if dice is None:
        dice = Dice(None, f"{opts.random_seed}:turn{state.turn}:{power}:prospect:{len(state.deck)}")
    k = dice.roll(len(state.deck), f"{power}'s prospect: a card of the {len(state.deck)} in the resource deck")
    cid = state.deck.pop(k - 1)
    state.holdings(power).companies.append(CompanyCard(id=cid))
    c = state.get_board().company(cid)
    return f"found {cid} ({c.resource} in {state.get_board().zone_name(c.zone)}; {len(state.deck)} cards left)"


def pay_interest(state: State, power: str, opts: SupremacyOptions, pay: bool = True) -> tuple[int, bool]:
    """Stage 1: pay the interest, or default (unable or unwilling): the unpaid interest is added to
    the principal.  Returns (interest due, paid)."""
    h = state.holdings(power)
    if h.loan is None:
        return 0, True
    due = interest_due(h.loan.principal, opts)
    if pay and h.money >= due:
        h.money -= due
        return due, True
    h.loan = h.loan.model_copy(update={"principal": h.loan.principal + due})
    return due, False


def repay(state: State, power: str, amount: int) -> None:
    h = state.holdings(power)
    if h.loan is None:
        raise EconomyError(f"{power} has no bank loan to repay")
    if h.loan.defaulted:
        raise EconomyError(f"{power}'s loan is in default (${h.loan.principal} million against an original "
                           f"${h.loan.original} million): it may not pay down the principal until it is back "
                           "to its original value")
    if amount <= 0 or amount > h.money or amount > h.loan.principal:
        raise EconomyError(f"{power} cannot repay ${amount} million (has ${h.money} million, owes "
                           f"${h.loan.principal} million)")
    h.money -= amount
    left = h.loan.principal - amount
    collateral = h.loan.collateral
    h.loan = Loan(principal=left, original=h.loan.original, collateral=collateral) if left else None
    if not left and collateral:
        for c in h.companies:
            if c.id in collateral:
                c.tapped = False


@dataclass
class Trade:
    power: str
    resource: Resource
    units: int
    money: int  # paid (buy) or received (sell), before any loan deduction
    to_bank: int = 0  # of a sale, paid to the bank against a defaulted loan
    steps: tuple[int, int] = (0, 0)  # market position before, after


def market_step(state: State, r: Resource, up: bool) -> None:
    """One step up or down; the track is bounded at $1 million and $1 billion (Market 4)."""
    s = state.market[r] + (1 if up else -1)
    state.market[r] = min(max(s, 1), len(MARKET_VALUES))


def buy(state: State, power: str, r: Resource, units: int, opts: SupremacyOptions) -> Trade:
    h = state.holdings(power)
    if h.loan is not None and h.loan.defaulted:
        raise EconomyError(f"{power} may not buy from the market while its loan is in default")
    if units <= 0:
        raise EconomyError(f"buy {units} {r}: the number must be positive")
    before = state.market[r]
    cost = 0
    for _ in range(units):
        cost += state.value(r)
        if opts.market_step == "per_unit":
            market_step(state, r, True)
    if opts.market_step == "per_transaction":
        cost = units * state.value(r)
        market_step(state, r, True)
    if cost > h.money:
        state.market[r] = before
        raise EconomyError(f"{power} cannot pay ${cost} million for {units} {r} (has ${h.money} million)")
    if h.resource(r) + units > 12:
        state.market[r] = before
        raise EconomyError(f"{power}'s supply center holds {h.resource(r)} {r}; {units} more exceed its 12")
    h.money -= cost
    setattr(h, r, h.resource(r) + units)
    return Trade(power, r, units, cost, 0, (before, state.market[r]))


def sell(state: State, power: str, r: Resource, units: int, opts: SupremacyOptions) -> Trade:
    h = state.holdings(power)
    if units <= 0 or units > h.resource(r):
        raise EconomyError(f"{power} cannot sell {units} {r} (has {h.resource(r)})")
    before = state.market[r]
    got = 0
    for _ in range(units):
        got += state.value(r)
        if opts.market_step == "per_unit":
            market_step(state, r, False)
    if opts.market_step == "per_transaction":
        got = units * state.value(r)
        market_step(state, r, False)
    setattr(h, r, h.resource(r) - units)
    to_bank = 0
    if h.loan is not None and h.loan.defaulted:  # "goes directly to the bank to pay down the interest first"
        to_bank = min(got, h.loan.principal - h.loan.original)
        h.loan = h.loan.model_copy(update={"principal": h.loan.principal - to_bank})
    h.money += got - to_bank
    return Trade(power, r, units, got, to_bank, (before, state.market[r]))


def wealth(state: State, power: str) -> dict[str, int]:
    """The wealth table, item by item, and its total."""
    h = state.holdings(power)
    items: dict[str, int] = {
        "money": h.money,
        **{r: h.resource(r) * state.value(r) for r in RESOURCES},
        "companies": WEALTH_COMPANY * sum(1 for c in h.companies if c.face_up and not c.tapped),
        "forces": WEALTH_FORCE * (sum(h.armies.values()) + len(h.navies) + sum(n.armies for n in h.navies)),
        "nukes": WEALTH_NUKE * h.nukes,
        "lstars": WEALTH_LSTAR * h.lstars,
        "loan": -(h.loan.principal if h.loan else 0),
    }
    items["total"] = sum(items.values())
    return items


def format_wealth(state: State) -> str:
    rows = {p: wealth(state, p) for p in sorted(state.powers)}
    cols = ["money", *RESOURCES, "companies", "forces", "nukes", "lstars", "loan", "total"]
    w = max([len(p) for p in rows] + [5])
    out = [f"{'power':<{w}} " + " ".join(f"{c:>9}" for c in cols) + "   (millions of dollars)"]
    for p, items in sorted(rows.items(), key=lambda kv: (-kv[1]["total"], kv[0])):
        out.append(f"{p:<{w}} " + " ".join(f"{items[c]:>9}" for c in cols))
    out.append("market: " + ", ".join(f"{r} step {state.market[r]} = ${state.value(r)} million" for r in RESOURCES))
    return "\n".join(out)
