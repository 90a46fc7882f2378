"""The rule set: every rule option as a validated pydantic model, and the four presets
(described in docs/RULES_ENGINE.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Literal, Self, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError, field_serializer, field_validator

from engine.cards import Layout, Suit, layout_for
from engine.errors import Cause, RuleOptionError

__all__ = [
    "ANTI_FEED",
    "CARD_EXCHANGE",
    "CHOP_AFTER_PASS",
    "AntiFeed",
    "CardExchange",
    "ChopAfterPass",
    "ChopTable",
    "Rules",
]

ChopTable = Literal["default", "narrow", "online"]
"""Which bombs beat 2s and other bombs (docs/RULES_ENGINE.md, "Beating a play"):

* ``default`` (southern): single 2 ← 3 pairs, any quad, 4+ pairs; pair of 2s ← any quad, 4+ pairs;
  three 2s ← 5+ pairs; 3 pairs ← quad, 4+ pairs; quad ← 4+ pairs; n pairs (n ≥ 4) ← longer double
  sequences; four 2s ← nothing.
* ``narrow`` (pagat, vc): single 2 ← quad or exactly 3 pairs; pair of 2s ← exactly 4 pairs;
  three 2s ← exactly 5 pairs; a bomb is beaten only by a higher bomb of its own type.
* ``online``: single 2 ← 3 pairs, quad, 4 pairs; pair of 2s ← 4 pairs; 3 pairs ← quad,
  4 pairs; quad ← 4 pairs (exactly four pairs in each case).

In every table a higher combination of the same type and length beats as usual, bombs never beat
anything that is neither a 2 nor a bomb, and four 2s can never be beaten.
"""

ChopAfterPass = Literal["off", "pairs", "any_bomb"]
"""Who may chop out of turn when the table shows 2s (or a bomb that chopped 2s in this trick):
``off`` nobody; ``pairs`` a player who passed or whose turn it is not, with four or more
consecutive pairs that beat the table; ``any_bomb`` the same players with any bomb that beats it."""
CHOP_AFTER_PASS: tuple[ChopAfterPass, ...] = ("off", "pairs", "any_bomb")

CardExchange = Literal["off", "san_jose", "tribute"]
"""Cards passed between games with 4+ players: ``san_jose`` the last gives their two highest to
the winner and the second-to-last their highest to the second, who give back as many cards of
their choice; ``tribute`` the last and the second-to-last give their two highest to the winner and
the second, and nothing is given back."""
CARD_EXCHANGE: tuple[CardExchange, ...] = ("off", "san_jose", "tribute")

AntiFeed = Literal["off", "on", "lead_only"]
"""Đền bài (docs/RULES_ENGINE.md, "Đền bài"): when the next player holds one card, the player on
turn must lead or answer with their highest single (and may not pass while holding a single that
beats the table); if they do not and that player goes out first in that trick, the feeder pays the
table's losses. ``lead_only``: only a low single led counts (the variation some tables play)."""
ANTI_FEED: tuple[AntiFeed, ...] = ("off", "on", "lead_only")

_YES = {"true", "on", "yes", "1"}
_NO = {"false", "no", "0"}


def _old_switch(value: object, on: str) -> object:
    """Saved rules from before an option had three values stored ``true``/``false``."""
    if isinstance(value, bool):
        return on if value else "off"
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _YES:
            return on
        if text in _NO:
            return "off"
        return text
    return value


_SUIT_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_TEXT[_s.letter] = _s
    _SUIT_TEXT[_s.letter.lower()] = _s
    _SUIT_TEXT[_s.symbol] = _s
    _SUIT_TEXT[_s.name.lower()] = _s


class Rules(BaseModel):
    """Every rule option of the game. ``Rules()`` is the ``southern`` preset.

    The model is frozen; ``rules.model_copy(update={...})`` returns a validated copy (a bad value
    raises pydantic's ``ValidationError``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    suit_order: tuple[Suit, Suit, Suit, Suit] = (
        Suit.SPADES,
        Suit.CLUBS,
        Suit.DIAMONDS,
        Suit.HEARTS,
    )
    """Suits from low to high. Accepts a string such as ``"SCDH"`` or ``"♥♦♣♠"``."""
    first_lead: Literal["lowest_card", "any"] = "lowest_card"
    winner_leads_next: bool = True
    reverse_order_each_game: bool = False
    double_seq3_may_lead: bool = True
    pass_locks_out: bool = True
    chop_after_pass: ChopAfterPass = "pairs"
    bombs_need_chop_context: bool = False
    chop_table: ChopTable = "default"
    end: Literal["to_last", "first_out"] = "to_last"
    instant_wins: bool = True
    scoring: Literal["places", "loser_pays", "cards_left", "pot"] = "places"
    chop_bonus: bool = False
    deuce_penalty: bool = False
    card_exchange: CardExchange = "off"
    three_player_17: bool = False
    double_quad: bool = False
    """Two quads of consecutive ranks (no 2s) are a bomb: it beats 2s (not four 2s), any quad and
    three to five consecutive pairs, and only a higher double quad beats it."""
    cong: bool = False
    """"Cóng": when the first player goes out, those who have not played a card are frozen: they
    take the last places at once and every payment they make is doubled."""
    anti_feed: AntiFeed = "off"
    """Đền bài: see :data:`AntiFeed`."""
    no_two_last: bool = False
    """Cấm đánh 2 cuối: a play that contains a 2 may not empty the hand, and no play may leave a
    hand of nothing but 2s (they could never go out)."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "southern": {},
        "pagat": {
            "chop_table": "narrow",
            "chop_after_pass": "off",
            "end": "first_out",
            "scoring": "cards_left",
            "instant_wins": False,
        },
        "vc": {
            "chop_table": "narrow",
            "chop_after_pass": "off",
            "scoring": "loser_pays",
            "instant_wins": False,
        },
        "online": {
            "suit_order": (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES),
            "first_lead": "any",
            "chop_table": "online",
            "chop_after_pass": "pairs",
            "double_seq3_may_lead": False,
            "end": "first_out",
            "scoring": "pot",
            "chop_bonus": True,
            "deuce_penalty": True,
            "instant_wins": True,
            "reverse_order_each_game": True,
        },
        "vn_house": {
            "anti_feed": "on",
            "no_two_last": True,
            "cong": True,
            "chop_bonus": True,
            "deuce_penalty": True,
        },
    }

    @field_validator("chop_after_pass", mode="before")
    @classmethod
    def _parse_chop_after_pass(cls, value: object) -> object:
        return _old_switch(value, "pairs")

    @field_validator("anti_feed", mode="before")
    @classmethod
    def _parse_anti_feed(cls, value: object) -> object:
        return _old_switch(value, "on")

    @field_validator("card_exchange", mode="before")
    @classmethod
    def _parse_card_exchange(cls, value: object) -> object:
        return _old_switch(value, "san_jose")

    @field_validator("suit_order", mode="before")
    @classmethod
    def _parse_suit_order(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            parts = text.replace(",", " ").split() if (" " in text or "," in text) else list(text)
            try:
                return tuple(_SUIT_TEXT[p] for p in parts)
            except KeyError:
                raise ValueError(f"{value!r} is not a suit order such as 'SCDH'") from None
        if isinstance(value, (list, tuple)):
            return tuple(_SUIT_TEXT.get(v, v) if isinstance(v, str) else v for v in value)
        return value

    @field_validator("suit_order")
    @classmethod
    def _check_suit_order(cls, value: tuple[Suit, Suit, Suit, Suit]) -> tuple[Suit, ...]:
        if len(set(value)) != 4:
            raise ValueError("the suit order must list each of the four suits once")
        return value

    @field_serializer("suit_order", when_used="json")
    def _dump_suit_order(self, value: tuple[Suit, ...]) -> str:
        return "".join(s.letter for s in value)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset: ``southern`` (the default), ``pagat``, ``vc``, ``online`` or
        ``vn_house``."""
        key = name.strip().lower()
        if key not in cls.PRESETS:
            raise ValueError(
                f"unknown preset {name!r}; choose one of {', '.join(cls.PRESETS)}"
            )
        return cls(**cls.PRESETS[key])

    @classmethod
    def preset_names(cls) -> list[str]:
        return list(cls.PRESETS)

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, or ``None`` for a custom rule set."""
        for name in self.PRESETS:
            if self == Rules.preset(name):
                return name
        return None

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with some options changed; unlike pydantic's default, the result is validated."""
        data = self.model_dump()
        if update:
            data.update(update)
        return self.model_validate(data)

    def with_options(self, assignments: Iterable[str]) -> Rules:
        """A copy with options changed by ``name=value`` texts (``cong=true``,
        ``card_exchange=tribute``); raises :class:`~engine.errors.RuleOptionError` naming the
        option (its cause and data say which text is refused and why)."""
        update: dict[str, str] = {}
        fields = type(self).model_fields
        for part in assignments:
            name, sep, value = part.partition("=")
            name, value = name.strip(), value.strip()
            if not sep or not name or not value:
                raise RuleOptionError(f"write each option as name=value; {part!r} is not",
                                      cause=Cause.OPTION_FORMAT, part=part)
            if name not in fields:
                raise RuleOptionError(
                    f"there is no rule option {name!r}; options: {', '.join(fields)}",
                    cause=Cause.UNKNOWN_OPTION, name=name, options=tuple(fields),
                )
            update[name] = value
        try:
            return self.model_copy(update=update)
        except ValidationError as error:
            first = error.errors()[0]
            loc = first.get("loc", ())
            where = str(loc[0]) if loc and str(loc[0]) in update else "options"
            given = update[where] if where in update else " ".join(
                f"{n}={v}" for n, v in update.items())
            # the values it takes, when they are a closed list (not the suit order's examples)
            choices = self.option_values().get(where, ()) if where != "suit_order" else ()
            extra = {"choices": choices} if choices else {}
            raise RuleOptionError(f"option {where}: {first.get('msg', 'bad value')}",
                                  cause=Cause.OPTION_VALUE, name=where, value=given,
                                  **extra) from None

    @classmethod
    def option_values(cls) -> dict[str, tuple[str, ...]]:
        """Every option and the values it takes as text (``on``/``off`` for a switch; two
        examples for ``suit_order``), in the model's order: for completions and help."""
        out: dict[str, tuple[str, ...]] = {}
        for name, info in cls.model_fields.items():
            kind = info.annotation
            if kind is bool:
                out[name] = ("on", "off")
            elif get_origin(kind) is Literal:
                out[name] = tuple(str(v) for v in get_args(kind))
            elif name == "suit_order":
                out[name] = ("SCDH", "HDCS")
            else:  # pragma: no cover - every option is one of the above
                out[name] = ()
        return out

    @classmethod
    def option_completions(cls, text: str, limit: int = 25) -> list[str]:
        """Completions of an options text such as ``"cong=on card_exch"``: the words typed so
        far are kept and the last one is completed: to ``name=value`` for each value once the
        name is known (one option starts so, or ``=`` was typed), otherwise to ``name=``."""
        head, _, last = text.rpartition(" ")
        prefix = f"{head} " if head.strip() else ""
        values = cls.option_values()
        name, sep, value = last.partition("=")
        if sep:
            words = [f"{name}={v}" for v in values.get(name, ()) if v.startswith(value.lower())]
        else:
            typed = {w.partition("=")[0] for w in head.split()}
            names = [n for n in values if n.startswith(name.lower()) and n not in typed]
            if len(names) == 1:
                words = [f"{names[0]}={v}" for v in values[names[0]]]
            else:
                words = [f"{n}=" for n in names]
        return [prefix + w for w in words][:limit]

    @property
    def layout(self) -> Layout:
        """Card indexes and masks under :attr:`suit_order` (shared, cached)."""
        return layout_for(tuple(self.suit_order))

    def describe(self) -> list[tuple[str, str]]:
        """(option label, human-readable value) pairs, in a stable order, for a rules embed."""
        on = {True: "on", False: "off"}
        chop = {
            "default": "southern: 3 pairs or quad chop a 2, 4+ pairs chop a pair of 2s",
            "narrow": "narrow: bombs only chop 2s, and only higher bombs of one type",
            "online": "online: 3 pairs/quad/4 pairs chop a 2, 4 pairs chop a pair of 2s",
        }
        return [
            ("Suit order (low → high)", " < ".join(s.symbol for s in self.suit_order)),
            (
                "First game lead",
                f"lowest card ({self.suit_order[0].symbol.join(['3', ''])}), must include it"
                if self.first_lead == "lowest_card"
                else "random player, any combination",
            ),
            ("Winner leads next game", on[self.winner_leads_next]),
            ("Reverse play order each game", on[self.reverse_order_each_game]),
            ("Three consecutive pairs may lead", on[self.double_seq3_may_lead]),
            ("Passing locks you out of the trick", on[self.pass_locks_out]),
            (
                "Chop out of turn (after passing)",
                {
                    "off": "off",
                    "pairs": "with 4+ consecutive pairs, on 2s",
                    "any_bomb": "with any bomb that beats 2s or their chopper",
                }[self.chop_after_pass],
            ),
            ("Bomb on bomb needs a chopped 2", on[self.bombs_need_chop_context]),
            ("Chop table", chop[self.chop_table]),
            (
                "Game ends",
                "when one player is left"
                if self.end == "to_last"
                else "when the first player goes out",
            ),
            ("Instant wins", on[self.instant_wins]),
            (
                "Scoring",
                {
                    "places": "by places",
                    "loser_pays": "loser pays everyone",
                    "cards_left": "one unit per card left",
                    "pot": "winner takes the pot",
                }[self.scoring],
            ),
            ("Chop bonus", on[self.chop_bonus]),
            ("Penalty for 2s and bombs left", on[self.deuce_penalty]),
            (
                "Card exchange between games",
                {
                    "off": "off",
                    "san_jose": "San Jose: losers give their highest, winners give back",
                    "tribute": "tribute: losers give their two highest, nothing back",
                }[self.card_exchange],
            ),
            ("17 cards each with 3 players", on[self.three_player_17]),
            ("Two consecutive quads are a bomb", on[self.double_quad]),
            ("Cóng: players without a play when someone goes out pay double",
             on[self.cong]),
            (
                "Who lets a last card out pays for everyone",
                {"off": "off", "on": "on", "lead_only": "only for a low single led"}[
                    self.anti_feed],
            ),
            ("No going out on a 2", on[self.no_two_last]),
        ]
