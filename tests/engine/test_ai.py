"""Computer players: legal plays under every preset, information hiding, determinism, arena."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from benchmarks.arena import play_game, run_arena
from engine import Game, Phase, Rules, classify, parse_cards
from engine.ai import Level, choose, choose_returns, decide, decide_json, hint, observe, search
from engine.events import Played
from tests.support.volume import volume

PRESETS = ["southern", "pagat", "vc", "online"]


def _play(game: Game, levels: list[str], seed: int, budget_ms: int | None = None) -> Game:
    """Play to the end, checking every decision (and every out-of-turn chop) is accepted."""
    step = 0
    while game.phase is Phase.EXCHANGE:
        for s in list(game.pending_returns):
            cards = choose_returns(game, s, levels[s])
            assert game.can_return(s, cards)
            game.return_cards(s, cards)
    while not game.is_over:
        step += 1
        assert step < 2000
        seat = game.current
        assert seat is not None
        cards = decide(game, seat, levels[seat], seed=seed + step, budget_ms=budget_ms)
        if cards is None:
            assert game.can_pass(seat), "passed when leading"
            game.pass_turn(seat)
        else:
            assert game.can_play(seat, cards), (levels[seat], cards)
            game.play(seat, cards)
        if game.rules.chop_after_pass != "off" and not game.is_over:
            for other in game.has_out_of_turn_chop():
                chop = decide(game, other, levels[other], seed=seed, budget_ms=budget_ms)
                if chop is not None:
                    assert game.can_play(other, chop)
                    game.play(other, chop)
                    break
    return game


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_levels_play_legally_under_every_preset(preset: str, level: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(f"{preset}{level}")
    for i in range(volume(20, 60)):
        n = rng.choice([2, 3, 4, 4, 4])
        levels = [level] + [rng.choice(["easy", "normal", "hard"]) for _ in range(n - 1)]
        _play(Game.new(rules, n, seed=rng.randrange(10**9)), levels, seed=i)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_two_decks_three_players_17_and_options(level: str) -> None:
    base = Rules()
    variants = [
        (base, 6),
        (base, 8),
        (base.model_copy(update={"three_player_17": True}), 3),
        (base.model_copy(update={"pass_locks_out": False}), 4),
        (base.model_copy(update={"bombs_need_chop_context": True}), 4),
        (Rules.preset("online").model_copy(update={"double_seq3_may_lead": False}), 5),
    ]
    for i, (rules, n) in enumerate(variants * 4):
        _play(Game.new(rules, n, seed=1000 + i), [level] * n, seed=i)


def test_card_exchange_returns_and_next_games() -> None:
    rules = Rules().model_copy(update={"card_exchange": True})
    game = _play(Game.new(rules, 4, seed=7), ["hard", "normal", "easy", "hard"], seed=1)
    for i in range(4):
        game = Game.next(game, seed=100 + i)
        assert game.phase in (Phase.EXCHANGE, Phase.OVER)
        _play(game, ["hard", "normal", "easy", "expert"], seed=i, budget_ms=3)


@pytest.mark.no_cover  # many random games: the unit tests cover these lines
def test_expert_plays_legally_with_a_tiny_budget() -> None:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for i in range(volume(1, 2)):
            _play(Game.new(rules, 4, seed=50 + i), ["expert", "hard", "normal", "expert"],
                  seed=i, budget_ms=3)


def _midgame(seed: int, actions: int) -> tuple[Game, list[tuple[int, list[str] | None]]]:
    rules = Rules().model_copy(update={"instant_wins": False})
    game = Game.new(rules, 4, seed=seed)
    log: list[tuple[int, list[str] | None]] = []
    for step in range(actions):
        if game.is_over:
            break
        seat = game.current
        assert seat is not None
        cards = decide(game, seat, "hard", seed=step)
        if cards is None:
            game.pass_turn(seat)
            log.append((seat, None))
        else:
            game.play(seat, cards)
            log.append((seat, [c.code for c in cards]))
    return game, log


def _reshuffled(game: Game, seat: int, log: list[tuple[int, list[str] | None]],
                rng: random.Random) -> Game:
    """The same game for ``seat``: its hand and the public actions are kept, the other seats'
    unplayed cards are dealt among them again (same counts)."""
    dealt = [list(h) for h in game.events[0].hands]  # type: ignore[union-attr]
    played = {s: [c for e in game.events if isinstance(e, Played) and e.seat == s
                  for c in e.cards] for s in range(4)}
    hidden = [c for s in range(4) if s != seat for c in game.hand(s)]
    rng.shuffle(hidden)
    hands: list[list[object]] = []
    for s in range(4):
        if s == seat:
            hands.append(list(dealt[s]))
            continue
        k = len(game.hand(s))
        hands.append(played[s] + hidden[:k])
        hidden = hidden[k:]
    other = Game.new(game.rules, 4, hands=hands)  # type: ignore[arg-type]
    for s, cards in log:
        if cards is None:
            other.pass_turn(s)
        else:
            other.play(s, cards)
    return other


@pytest.mark.parametrize("seed", [3, 11, 12])
def test_decisions_depend_only_on_the_observation(seed: int) -> None:
    game, log = _midgame(seed, 14)
    if game.is_over:
        pytest.skip("game ended early")
    seat = game.current
    assert seat is not None
    other = _reshuffled(game, seat, log, random.Random(seed))
    assert [other.hand(s) for s in range(4)] != [game.hand(s) for s in range(4)]
    assert observe(game, seat) == observe(other, seat)
    for level in Level:
        a = decide(game, seat, level, seed=5, budget_ms=10)
        b = decide(other, seat, level, seed=5, budget_ms=10)
        assert a == b, level
    assert hint(observe(game, seat)) == hint(observe(other, seat))


def test_observation_hides_other_hands() -> None:
    game, _ = _midgame(4, 6)
    obs = observe(game, 1)
    assert all(not hasattr(e, "hands") for e in obs.log)
    assert obs.hand == tuple(game.hand(1))
    assert obs.counts == tuple(len(game.hand(s)) for s in range(4))


@pytest.mark.parametrize("level", list(Level))
def test_decisions_are_deterministic_under_a_seed(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The expert's work is counted in simulated decisions; only its wall-clock guard for very slow
    # machines could cut a search short. A loaded test machine must not trip it here.
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)
    for seed in range(3):
        game, _ = _midgame(20 + seed, 5)
        seat = game.current
        assert seat is not None
        first = decide(game, seat, level, seed=42, budget_ms=10)
        assert all(decide(game, seat, level, seed=42, budget_ms=10) == first for _ in range(2))
        js = decide_json(game.to_json(), seat, level, 42)
        if level != "expert":
            assert js == (None if first is None else [c.code for c in first])
    rules = Rules()
    one = play_game(["expert", "hard", "normal", "easy"], rules, 9, 1, budget_ms=3)
    two = play_game(["expert", "hard", "normal", "easy"], rules, 9, 1, budget_ms=3)
    assert (one.places, one.chips) == (two.places, two.chips)


def test_hint_is_legal_or_pass() -> None:
    game = Game.new(Rules(), 4, seed=8)
    while not game.is_over:
        seat = game.current
        assert seat is not None
        obs = observe(game, seat)
        combo = hint(obs)
        if combo is None:
            assert obs.can_pass
            game.pass_turn(seat)
        else:
            assert game.can_play(seat, combo.cards)
            game.play(seat, combo.cards)


def test_choose_rejects_an_unknown_level() -> None:
    game = Game.new(Rules(), 4, seed=1)
    with pytest.raises(ValueError, match="unknown level"):
        choose(observe(game, 0), "grandmaster")


def test_arena_smoke() -> None:
    result = run_arena(["hard", "normal", "easy", "expert"], games=4, rules=Rules(), seed=2,
                       workers=1, budget_ms=3)
    assert result.games == 4
    assert abs(sum(p.first for p in result.players) - 1.0) < 1e-9
    assert abs(sum(p.chips for p in result.players)) < 1e-9
    assert "first place" in result.table()


def test_history_of_hard_opponents_is_reproduced_by_their_true_hands() -> None:
    from engine.ai.core import full_mask
    from engine.ai.search import DealSampler, _match, history

    game, _ = _midgame(31, 20)
    if game.is_over:
        pytest.skip("game ended early")
    me = game.current
    assert me is not None
    obs = observe(game, me)
    hist = history(obs.log, obs.counts, me, obs.rules, 40)
    assert hist
    true = [obs.layout.to_mask(game.hand(s)) for s in range(4)]
    assert all(_match(d, true[d.seat], 4, 1, obs.rules, full_mask(1)) for d in hist)
    groups = {s: [] for s in range(4) if s != me}
    base = list(true)
    base[me] = true[me]
    sampler = DealSampler(groups=groups, base=base, hist=hist, rng=random.Random(1), n=4,
                          direction=1, rules=obs.rules, full=full_mask(1))
    assert all(sampler.flags)


def _sampler_for(game: Game, me: int, rng: random.Random):  # type: ignore[no-untyped-def]
    from engine.ai.core import full_mask
    from engine.ai.search import RejectSampler, _unseen_bits, history

    obs = observe(game, me)
    hand = obs.hand_mask
    unseen = full_mask(1) - hand - obs.played_mask
    need = {s: obs.counts[s] for s in range(4) if s != me and obs.counts[s]}
    base = [0] * 4
    base[me] = hand
    hist = history(obs.log, obs.counts, me, obs.rules, 999)
    sampler = RejectSampler(pool=_unseen_bits(unseen), need=need, base=base, hist=hist, rng=rng,
                            n=4, direction=1, rules=obs.rules, full=full_mask(1))
    return obs, unseen, sampler


@pytest.mark.no_cover  # many random games: the unit tests cover these lines
def test_reject_sampler_deals_fit_the_counts_and_the_opponents_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.ai import search

    monkeypatch.setattr(search, "TRIES", 5000)
    game, _ = _midgame(31, 20)
    me = game.current
    assert me is not None and not game.is_over
    obs, unseen, sampler = _sampler_for(game, me, random.Random(3))
    first = sampler.order[0]  # drawn from all the unseen cards, so its true hand is possible
    assert sampler.by_seat[first]
    for _ in range(volume(4, 10)):
        hands = sampler.hands()
        assert hands[me] == obs.hand_mask
        others = [s for s in range(4) if s != me]
        assert sum(hands[s] for s in others) == unseen
        for s in others:
            assert len(obs.layout.cards(hands[s])) == obs.counts[s]
        assert sampler._fits(first, hands[first])


def _midgames(seeds: range, actions: int) -> Iterator[tuple[int, Game, int]]:
    """``(seed, game, seat to play)`` for the mid-games of :func:`_midgame` still in play."""
    for seed in seeds:
        game, _ = _midgame(seed, actions)
        if not game.is_over:
            assert game.current is not None
            yield seed, game, game.current


@pytest.mark.no_cover  # many random games: the unit tests cover these lines
def test_reject_sampler_places_hidden_cards_better_than_uniform_deals() -> None:
    from engine.ai.search import _unseen_bits

    hits = {"reject": 0, "uniform": 0}
    total = 0
    for seed, game, me in _midgames(range(31, 31 + volume(5, 10)), 32):
        rng = random.Random(seed)
        obs, unseen, sampler = _sampler_for(game, me, rng)
        true = [obs.layout.to_mask(game.hand(s)) for s in range(4)]
        others = [s for s in range(4) if s != me and obs.counts[s]]
        pool = _unseen_bits(unseen)
        for _ in range(20):
            hands = sampler.hands()
            rng.shuffle(pool)
            i = 0
            for s in others:
                uniform = sum(pool[i : i + obs.counts[s]])
                i += obs.counts[s]
                hits["reject"] += (hands[s] & true[s]).bit_count()
                hits["uniform"] += (uniform & true[s]).bit_count()
                total += obs.counts[s]
    assert total > 0
    assert hits["reject"] > 1.1 * hits["uniform"]


def test_match_shortcuts_agree_with_the_full_hard_model() -> None:
    """``_match`` skips the full ``hard`` decision when a cheap test settles it; on random hands
    it must agree with asking ``hard`` outright."""
    from engine.ai.core import Ctx, full_mask, hard_choice
    from engine.ai.search import _match, _unseen_bits, history

    def reference(d, hand_now: int, rules: Rules) -> bool:  # type: ignore[no-untyped-def]
        hand = hand_now + d.later
        opponents = [x for x in ((d.seat + i) % 4 for i in range(1, 4)) if d.counts[x]]
        ctx = Ctx(seat=d.seat, hand=hand, counts=d.counts, table=d.table, owner=d.owner,
                  chop_ctx=d.chop_ctx, unseen=full_mask(1) - hand - d.played,
                  opponents=opponents, rules=rules, layout=rules.layout)
        choice = hard_choice(ctx, None, d.table is not None)
        return (None if choice is None else choice[1]) == d.action

    checked = {True: 0, False: 0}
    for seed, game, me in _midgames(range(41, 47), 30):
        obs = observe(game, me)
        unseen = full_mask(1) - obs.hand_mask - obs.played_mask
        pool = _unseen_bits(unseen)
        rng = random.Random(seed)
        for d in history(obs.log, obs.counts, me, obs.rules, 999):
            for _ in range(40):
                hand = sum(rng.sample(pool, obs.counts[d.seat]))
                got = _match(d, hand, 4, 1, obs.rules, full_mask(1))
                assert got == reference(d, hand, obs.rules)
                checked[got] += 1
    assert checked[True] > 0 and checked[False] > 1000


# ---------------------------------------------------------------- the options double_quad,
# chop_after_pass = "any_bomb", cong and card_exchange = "tribute"

OPTION_RULES = {
    "double_quad": Rules(double_quad=True),
    "any_bomb": Rules(chop_after_pass="any_bomb"),
    "cong": Rules(cong=True),
    "tribute": Rules(card_exchange="tribute"),
    "all": Rules.preset("online").model_copy(update={
        "double_quad": True, "chop_after_pass": "any_bomb", "cong": True,
        "card_exchange": "tribute"}),
}
DQ_CARDS = "7S 7C 7D 7H 8S 8C 8D 8H"


@pytest.mark.parametrize("option", list(OPTION_RULES))
def test_levels_play_legally_with_each_new_option(option: str) -> None:
    rules = OPTION_RULES[option]
    rng = random.Random(option)
    for i in range(8):
        n = rng.choice([4, 4, 5])
        levels = [rng.choice(["easy", "normal", "hard"]) for _ in range(n)]
        game = _play(Game.new(rules, n, seed=rng.randrange(10**9)), levels, seed=i)
        _play(game.next_game(seed=i), levels, seed=i)  # the exchange, when on
    _play(Game.new(rules, 4, seed=5), ["expert", "hard", "normal", "easy"], seed=5, budget_ms=2)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_strong_levels_chop_2s_with_a_double_quad_and_lead_it_out(level: str) -> None:
    # under the narrow chop table only four consecutive pairs, or the double quad, beat two 2s
    rules = Rules.preset("vc").model_copy(update={"double_quad": True})
    game = Game.new(rules, 3, hands=["2D 2H 3S 4S", DQ_CARDS + " 5S", "6S 9H"], leader=0)
    game.play(0, "2D 2H")
    cards = decide(game, 1, level, seed=1, budget_ms=5)
    assert cards is not None and " ".join(c.code for c in cards) == DQ_CARDS
    out = Game.new(rules, 2, hands=[DQ_CARDS, "3S 4D"], leader=0)
    cards = decide(out, 0, level, seed=1, budget_ms=5)
    assert cards is not None and len(cards) == 8  # the whole hand at once, not a quad


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_strong_levels_bomb_out_of_turn_with_any_bomb(level: str) -> None:
    rules = Rules(instant_wins=False, chop_after_pass="any_bomb")
    hands = ["2S 3S", "4S 5C 3C", "9S 9C 9D 9H 3D 6H", "JS QC 3H"]
    game = Game.new(rules, 4, hands=hands, leader=0)
    game.play(0, "2S")
    assert game.current == 1
    cards = decide(game, 2, level, seed=1, budget_ms=5)  # not seat 2's turn
    assert cards is not None and " ".join(c.code for c in cards) == "9S 9C 9D 9H"
    assert game.can_play(2, cards)
    plain = Game.new(rules.model_copy(update={"chop_after_pass": "pairs"}), 4, hands=hands,
                     leader=0)
    plain.play(0, "2S")
    assert decide(plain, 2, level, seed=1, budget_ms=5) is None


def test_hard_answers_rather_than_risk_being_frozen() -> None:
    hands = ["KS 4H 4D 8H 8D", "2S 5C 6C 7C 9C JC QC", "3H 3D 6D 7D 9H 10H"]
    plain = Game.new(Rules(instant_wins=False), 3, hands=hands, leader=0)
    plain.play(0, "KS")
    assert decide(plain, 1, "hard") is None  # keeps its 2 for later
    cong = Game.new(Rules(instant_wins=False, cong=True), 3, hands=hands, leader=0)
    cong.play(0, "KS")
    cards = decide(cong, 1, "hard")
    assert cards is not None and [c.code for c in cards] == ["2S"]


def test_arena_takes_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.arena import main as arena_main

    args = ["--seats", "hard,normal,normal,easy", "--games", "8", "--workers", "1",
            "--set", "cong=true", "--set", "card_exchange=tribute", "--set", "double_quad=on"]
    assert arena_main(args) == 0
    out = capsys.readouterr().out
    assert "rules southern (cong=true card_exchange=tribute double_quad=on)" in out
    assert "8 games" in out
    with pytest.raises(SystemExit) as stop:
        arena_main(["--set", "cong=maybe"])
    assert stop.value.code == 2
    assert "option cong" in capsys.readouterr().err


def test_arena_deals_exchange_games_after_a_seeded_result() -> None:
    from benchmarks.arena import deal
    from engine.events import Exchanged

    rules = Rules(card_exchange="tribute", instant_wins=False)
    game = deal(rules, 4, seed=3)
    gifts = [e for e in game.events if isinstance(e, Exchanged)]
    assert len(gifts) == 2 and all(len(e.cards) == 2 for e in gifts)
    assert not game.first_game
    assert [e for e in deal(rules, 3, seed=3).events if isinstance(e, Exchanged)] == []
    record = play_game(["normal"] * 4, rules, seed=3, rotation=0)
    assert sorted(record.places) == [1, 2, 3, 4]


def test_rollouts_freeze_the_seats_that_never_played_under_cong() -> None:
    from engine.ai.core import full_mask
    from engine.ai.sim import Sim, utility

    rules = Rules(cong=True, instant_wins=False)
    layout = rules.layout
    hands = [layout.to_mask(parse_cards(h), 1) for h in ("3S", "4S 5S", "6S 7S", "8S 9S")]
    sim = Sim(hands=hands, table=None, owner=None, chop_ctx=False, passed=set(), cur=0,
              finished=[], played=0, direction=1, rules=rules, full=full_mask(1),
              started={0, 1})
    lead = classify("3S", rules)
    assert lead is not None
    sim.act(0, lead)
    assert sim.over and sim.frozen == [2, 3]
    assert [utility(sim, s) for s in range(4)] == [2.0, 1.0, -2.0, -4.0]  # frozen pay double
    # unmodelled (no ``started``): nobody is frozen and the game goes on
    plain = Sim(hands=list(hands), table=None, owner=None, chop_ctx=False, passed=set(), cur=0,
                finished=[], played=0, direction=1, rules=rules, full=full_mask(1))
    plain.act(0, lead)
    assert not plain.over and plain.frozen == []
