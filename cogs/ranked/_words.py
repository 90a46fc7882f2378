"""The words of `/tienlen rank` (both languages through the catalogues)."""

from __future__ import annotations

from cogs.i18n import NP_, Words
from data.ratings import PlayerRating
from engine.rating import PROVISIONAL_GAMES, Tier, is_provisional, tier_of

TIER_NAMES: dict[Tier, tuple[str, str]] = {
    Tier.BRONZE: NP_("rating tier", "Bronze"),
    Tier.SILVER: NP_("rating tier", "Silver"),
    Tier.GOLD: NP_("rating tier", "Gold"),
    Tier.PLATINUM: NP_("rating tier", "Platinum"),
    Tier.DIAMOND: NP_("rating tier", "Diamond"),
}


def tier(w: Words, display: int) -> str:
    return w.pgettext(*TIER_NAMES[tier_of(display)])


def rank(w: Words, who: str, rating: PlayerRating) -> str:
    """The answer of `/tienlen rank`: rating, tier, provisional, place on the server's ladder
    (among its ranked players, as `/leaderboard by: rating` numbers them), games, the last game's
    change and the season's best."""
    lines = [w._("**Rating of {who}: {rating}** ({tier})", who=who,
                 rating=w.num(rating.display), tier=tier(w, rating.display))]
    if is_provisional(rating.games):
        lines.append(w._("Provisional: {games} of {needed} ranked games played.",
                         games=w.num(rating.games), needed=w.num(PROVISIONAL_GAMES)))
    if rating.rank is None:
        lines.append(w._("Until then listed apart, with the provisional players, on the "
                         "server's ladder."))
    else:
        lines.append(w._("Rank **{rank}** of {of} in this server.", rank=w.num(rating.rank),
                         of=w.num(rating.of)))
    lines.append(w.ngettext("{games} ranked game · last game: {change}",
                            "{games} ranked games · last game: {change}", rating.games,
                            games=w.num(rating.games), change=w.signed(rating.last_change)))
    lines.append(w._("Best rating this season: {best}", best=w.num(rating.best)))
    return "\n".join(lines)


def unrated(w: Words, who: str) -> str:
    return w._("{who} has no rating here yet: it starts with a first ranked game.", who=who)
