"""The expert's carried belief (engine/ai/belief.py): the same decision whether its particle cache
is warm, rebuilt in this process or built in another one; nothing hidden leaks into it; the cache
stays bounded; the noise it fits follows what a seat does; every decision is legal under every
preset and option."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.opponents import decide_as
from benchmarks.pools import paired
from engine import Game, Rules
from engine.ai import belief, decide, observe, search
from engine.ai.core import full_mask
from engine.ai.sim import Sim
from engine.events import Played
from tests.engine.test_ai import _midgame, _play, _reshuffled

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 8


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # Work is counted in simulated decisions; the wall-clock guard for very slow machines must not
    # cut a search short on a loaded test machine.
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)
    belief.clear()


Action = tuple[int, list[str] | None]


def _replay(game: Game, log: list[Action], seat: int) -> list[list[str] | None]:
    """Replay ``log`` on ``game``, asking the expert in ``seat`` before each of its actions (so
    its cache is warm at every decision point); the decisions it would have made."""
    out: list[list[str] | None] = []
    for s, cards in log:
        if s == seat:
            got = decide(game, seat, "expert", seed=s * 31 + len(out), budget_ms=BUDGET)
            out.append(None if got is None else [c.code for c in got])
        if cards is None:
            game.pass_turn(s)
        else:
            game.play(s, cards)
    got = decide(game, seat, "expert", seed=99, budget_ms=BUDGET)
    out.append(None if got is None else [c.code for c in got])
    return out


def _same_game(game: Game, log: list[Action]) -> Game:
    dealt = [list(h) for h in game.events[0].hands]  # type: ignore[union-attr]
    out = Game.new(game.rules, 4, hands=dealt)  # type: ignore[arg-type]
    return out


def _particles(me: int, game: Game) -> list[tuple[tuple[int, ...], float]]:
    obs = observe(game, me)
    n = obs.players
    state, _ = belief.belief(me=me, n=n, direction=obs.direction, rules=obs.rules,
                             full=full_mask(obs.decks), hand=obs.hand_mask, counts=obs.counts,
                             log=obs.log, budget_units=BUDGET * search.STEPS_PER_MS,
                             budget_ms=BUDGET)
    return [(tuple(p.hands), w) for p, w in zip(state.particles, state.weights(), strict=True)]


@pytest.mark.parametrize("seed", [3, 11])
def test_warm_and_cold_caches_give_the_same_belief_and_decision(seed: int) -> None:
    game, log = _midgame(seed, 26)
    if game.is_over:
        pytest.skip("game ended early")
    seat = game.current
    assert seat is not None
    warm = _replay(_same_game(game, log), log, seat)
    assert len(warm) >= 3  # the cache was carried over several of the seat's decisions
    warm_particles = _particles(seat, game)
    belief.clear()  # a restart: rebuilt from the log alone
    cold_particles = _particles(seat, game)
    assert cold_particles == warm_particles
    assert len({h for h, _ in cold_particles}) > 1
    belief.clear()
    got = decide(game, seat, "expert", seed=99, budget_ms=BUDGET)
    assert (None if got is None else [c.code for c in got]) == warm[-1]


def test_another_process_makes_the_same_decision() -> None:
    game, log = _midgame(12, 30)
    if game.is_over:
        pytest.skip("game ended early")
    seat = game.current
    assert seat is not None
    warm = _replay(_same_game(game, log), log, seat)[-1]
    code = (
        "import json, sys\n"
        "from engine import Game\n"
        "from engine.ai import decide, search\n"
        "search.time.perf_counter = lambda: 0.0\n"
        "game = Game.from_json(sys.stdin.read())\n"
        f"got = decide(game, {seat}, 'expert', seed=99, budget_ms={BUDGET})\n"
        "print(json.dumps(None if got is None else [c.code for c in got]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=game.to_json(), cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == warm


@pytest.mark.parametrize("seed", [3, 12])
def test_hidden_cards_never_change_a_warm_belief(seed: int) -> None:
    game, log = _midgame(seed, 24)
    if game.is_over:
        pytest.skip("game ended early")
    seat = game.current
    assert seat is not None
    other = _reshuffled(game, seat, log, random.Random(seed))
    assert [other.hand(s) for s in range(4)] != [game.hand(s) for s in range(4)]
    mine = _replay(_same_game(game, log), log, seat)
    a_particles = _particles(seat, game)
    belief.clear()
    dealt = [list(h) for h in other.events[0].hands]  # type: ignore[union-attr]
    theirs = _replay(Game.new(other.rules, 4, hands=dealt), log, seat)  # type: ignore[arg-type]
    assert theirs == mine
    assert _particles(seat, other) == a_particles


def test_the_cache_is_bounded_small_and_released_when_the_seat_goes_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(belief, "MAX_GAMES", 3)
    rules = Rules().model_copy(update={"instant_wins": False})
    most = 0
    for i in range(5):
        game = Game.new(rules, 4, seed=300 + i)
        step = 0
        went_out = False
        while not game.is_over:
            step += 1
            seat = game.current
            assert seat is not None
            cards = decide(game, seat, "expert" if seat == 0 else "hard", seed=step,
                           budget_ms=BUDGET)
            if seat == 0:
                most = max(most, belief.cache_bytes())
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(seat, cards)
                went_out = went_out or (seat == 0 and not game.hand(0))
        assert len(belief._CACHE) <= 3
        if went_out:
            assert all(key[0] != 0 or key[2] != _start_hand(game) for key in belief._CACHE)
    assert 0 < most <= 1_000_000  # one table's carried deals (four seats at most) stay under 1 MB


def _start_hand(game: Game) -> int:
    layout = game.rules.layout
    return layout.to_mask([c for e in game.events if isinstance(e, Played) and e.seat == 0
                           for c in e.cards])


def _belief_after(levels: list[str], rules: Rules, seed: int, steps: int,
                  budget: int) -> tuple[list[int], belief.Belief] | None:
    """Play ``steps`` turns of a game with ``levels`` in its seats; seat 0's belief then, with the
    seats' card counts (``None`` when the game or seat 0 is done by then)."""
    game = Game.new(rules, 4, seed=seed)
    step = 0
    while not game.is_over and step < steps:
        step += 1
        seat = game.current
        assert seat is not None
        cards = decide(game, seat, levels[seat], seed=step, budget_ms=budget)
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
    if game.is_over or not game.hand(0):
        return None
    obs = observe(game, 0)
    state, _ = belief.belief(me=0, n=4, direction=obs.direction, rules=obs.rules,
                             full=full_mask(1), hand=obs.hand_mask, counts=obs.counts,
                             log=obs.log, budget_units=budget * search.STEPS_PER_MS,
                             budget_ms=budget)
    return list(obs.counts), state


def test_noise_is_fitted_to_what_each_seat_does() -> None:
    """A seat that plays at random is believed noisier than the ``hard`` seats, and the belief
    weighs its deals loosely instead of rejecting them."""
    rules = Rules().model_copy(update={"instant_wins": False})
    budget = 3 * BUDGET  # enough deals to tell the seats apart
    random_eps: list[float] = []
    hard_eps: list[float] = []
    for i in range(12):  # (about half the games leave seat 0 a hand at step 40)
        got = _belief_after(["expert", "easy", "hard", "hard"], rules, 500 + i, 40, budget)
        if got is None:
            continue
        _, state = got
        random_eps.append(state.eps[1])
        hard_eps += [state.eps[2], state.eps[3]]
    assert random_eps and hard_eps
    # (seeds 500-511: 0.24 against 0.11; the hard seats' fit is loose this early, unknown levels)
    assert sum(random_eps) / len(random_eps) > 1.5 * sum(hard_eps) / len(hard_eps)


OPTIONS = ["double_quad=on", "chop_after_pass=any_bomb", "cong=true", "card_exchange=tribute",
           "anti_feed=on", "no_two_last=on"]


@pytest.mark.parametrize("preset", [*Rules.preset_names(), "all_options", "three_player_17"])
def test_expert_with_carried_deals_plays_legally(preset: str) -> None:
    if preset == "all_options":
        rules = Rules.preset("online").with_options(OPTIONS)
    elif preset == "three_player_17":
        rules = Rules.preset("southern").with_options(["three_player_17=on", "cong=true"])
    else:
        rules = Rules.preset(preset)
    rng = random.Random(preset)
    for n in (4, 3):
        levels = ["expert", "hard", "expert", "easy"][:n]
        game = _play(Game.new(rules, n, seed=rng.randrange(10**9)), levels, seed=n, budget_ms=3)
        _play(game.next_game(seed=n), levels, seed=n, budget_ms=3)  # the exchange, when on


def _sim_of_deal(rules: Rules, seed: int, **options: Any) -> Sim:
    """A rollout from the start of the four-seat game dealt from ``seed``."""
    game = Game.new(rules, 4, seed=seed)
    hands = [rules.layout.to_mask(game.hand(s)) for s in range(4)]
    return Sim(hands=hands, table=None, owner=None, chop_ctx=False, passed=set(),
               cur=game.current or 0, finished=[], played=0, direction=1, rules=rules,
               full=full_mask(1), **options)


def test_noisy_rollouts_play_legal_moves() -> None:
    rules = Rules()
    for seed in range(6):
        sim = _sim_of_deal(rules, 700 + seed, noise=[0.0, 1.0, 1.0, 1.0],
                           rng=random.Random(seed))
        sim.run(0)
        assert sim.over or not sim.counts[0]
        assert sum(sim.counts) + sim.played.bit_count() == 52


def test_rollouts_play_a_normal_seat_by_its_lowest_legal_play() -> None:
    from engine.ai.core import answers, normal_choice, normal_lead

    rules = Rules()
    for seed in range(6):
        sim = _sim_of_deal(rules, 720 + seed, policy=[0, 1, 1, 1])
        plays = 0
        while not sim.over and sim.counts[0]:
            seat, hand, table = sim.cur, sim.hands[sim.cur], sim.table
            want = (normal_lead(hand, rules) if table is None
                    else normal_choice(answers(hand, table, rules, sim.chop_ctx)))
            before = sim.played
            sim.run(0, limit=sim.steps + 1)  # one decision
            if seat != 0:
                assert sim.played - before == (0 if want is None else want[1])
                plays += 1
        assert plays > 10


def test_benchmark_players_play_legally_and_pools_pair_the_deals() -> None:
    rules = Rules()
    for name in ("greedy", "noisy10", "noisy30"):
        game = Game.new(rules, 4, seed=11)
        step = 0
        while not game.is_over:
            step += 1
            seat = game.current
            assert seat is not None
            cards = decide_as(game, seat, name, seed=step)
            if cards is None:
                game.pass_turn(seat)
            else:
                assert game.can_play(seat, cards)
                game.play(seat, cards)
    with pytest.raises(ValueError):
        decide_as(Game.new(rules, 4, seed=1), 0, "nobody", seed=1)
    row = paired(("greedy", "noisy30", "normal"), 2, rules, seed=3, budget_ms=2)
    assert row["games"] == 2
    diff = row["diff_first"]
    assert isinstance(diff, list) and -100 <= diff[0] <= 100


def test_a_forced_pass_still_takes_the_beliefs_step() -> None:
    """With nothing to play the expert is not asked, but its belief takes that decision point's
    step, so the next search has no steps to catch up on."""
    rules = Rules().model_copy(update={"instant_wins": False})
    for seed in range(900, 940):
        game = Game.new(rules, 4, seed=seed)
        step = 0
        while not game.is_over:
            step += 1
            seat = game.current
            assert seat is not None
            forced = seat == 0 and game.table is not None and not game.legal_plays(0)
            cards = decide(game, seat, "expert" if seat == 0 else "hard", seed=step,
                           budget_ms=BUDGET)
            if forced:
                assert cards is None
                here = len(observe(game, 0).log)
                assert any(b.point == here for b in belief._CACHE.values())
                return
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(seat, cards)
    pytest.fail("no forced pass in 40 games")


def test_pools_command_prints_paired_figures(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.pools import main as pools_main

    monkeypatch.setattr(search, "NOISE_FROM", search.NOISE_FROM)  # restored after the test
    assert pools_main(["--pools", "greedy", "--games", "1", "--budget-ms", "2",
                       "--set", "search.NOISE_FROM=2.0"]) == 0
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert row["name"] == "greedy" and row["games"] == 1
    assert row["expert_work_ms"]["decisions"] > 0
    assert search.NOISE_FROM == 2.0
    with pytest.raises(SystemExit):
        pools_main(["--pools", "hard+nobody+easy", "--games", "1"])


@pytest.mark.parametrize("decks", [1, 2])
def test_the_normal_lead_found_in_the_lowest_rank_is_the_lowest_of_all_leads(decks: int) -> None:
    """The belief and the rollouts find a ``normal`` seat's lead among the cards of its lowest
    rank only: the same play ``normal`` picks among every lead of the hand."""
    from engine.ai.core import normal_choice, normal_lead
    from engine.combos import legal_leads, may_lead

    rng = random.Random(decks)
    base = Rules.preset("southern")
    for options in ([], ["double_quad=on"]):
        rules = base.with_options(options)
        layout = rules.layout
        cards = [1 << (2 * i) for i in range(52)] * decks  # each card ``decks`` times
        for _ in range(400):
            hand = sum(rng.sample(cards, rng.randint(1, 13)))
            every = [c for c in legal_leads(hand, layout, rules.double_seq3_may_lead,
                                            rules.double_quad) if may_lead(rules, c[0], c[1])]
            want = normal_choice(every)
            got = normal_lead(hand, rules)
            assert (None if got is None else got[1]) == (None if want is None else want[1])


def test_a_seat_is_played_as_normal_until_its_decisions_show_otherwise() -> None:
    """The rollouts play a seat as ``normal`` (in a share of the deals that grows with its
    decisions) while some hand makes ``normal`` reproduce every decision it made: a ``normal``
    seat keeps that model, a ``hard`` one loses it as it plays."""
    rules = Rules.preset("southern")
    as_normal: dict[str, list[bool]] = {"normal": [], "hard": []}
    levels = ["expert", "normal", "hard", "normal"]
    for i in range(3):
        got = _belief_after(levels, rules, 500 + i, 48, BUDGET)
        if got is None:
            continue
        counts, state = got
        assert state.policy[0] == belief.HARD  # the expert's own seat is never modelled
        for s in (1, 2, 3):
            if counts[s]:
                as_normal[levels[s]].append(state.policy[s] == belief.NORMAL)
                if state.policy[s] == belief.NORMAL:
                    assert state.normal_hands[s]
                    assert state.share[s] > belief.PRIOR_NORMAL  # many decisions, all explained
                else:
                    assert state.share[s] == 0.0
    assert as_normal["normal"] and as_normal["hard"]
    assert sum(as_normal["normal"]) / len(as_normal["normal"]) >= 0.5
    assert not any(as_normal["hard"])


def test_the_share_of_rollouts_playing_a_seat_as_normal_grows_with_the_evidence() -> None:
    shares = [belief.normal_share(True, k) for k in range(12)]
    assert all(0.0 < a <= b < 1.0 for a, b in itertools.pairwise(shares))
    assert shares[0] < belief.PRIOR_NORMAL < shares[6]  # one decision proves little, six much
    assert belief.normal_share(False, 0) == belief.normal_share(False, 9) == 0.0
