"""engine.rating: openskill's Plackett-Luce reference values, places with ties, anchors, leavers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from engine.level import Level
from engine.rating import (
    ANCHORS,
    DEFAULT_SKILL,
    Entrant,
    Skill,
    Tier,
    display_rating,
    is_provisional,
    rate,
    soft_reset,
    tier_of,
)

# openskill.py's own reference data (tests/models/data/plackettluce.json, "ties"): a model with
# these mu and sigma, teams of 1, 2 and 3 players ranked [1, 2, 1].
REF_MU = 31.321989232514305
REF_SIGMA = 11.379964801443018
REF_TIES = ((33.21874815457553, 11.354896725884002), (30.27713112192334, 11.291328826858104),
            (30.470088421044046, 11.249240904583088))


def test_the_pinned_library_matches_its_own_reference_values_with_ties() -> None:
    model = PlackettLuce(REF_MU, REF_SIGMA)
    teams = [[model.rating() for _ in range(n)] for n in (1, 2, 3)]
    rated = model.rate(teams, ranks=[1, 2, 1])
    for team, (mu, sigma) in zip(rated, REF_TIES, strict=True):
        for player in team:
            assert player.mu == pytest.approx(mu, rel=1e-4)
            assert player.sigma == pytest.approx(sigma, rel=1e-4)


def _plackett_luce_by_hand(start: list[Skill], ranks: list[int]) -> list[Skill]:
    """Algorithm 4 of Weng & Lin (2011) written out for one-player teams (openskill's defaults:
    beta 25/6, kappa 1e-4, tau 25/300, gamma = sqrt(sigma²)/c), to check the wrapper on its own."""
    beta, kappa, tau = 25 / 6, 1e-4, 25 / 300

    mus = [s.mu for s in start]
    var = [s.sigma**2 + tau**2 for s in start]
    c = math.sqrt(sum(v + beta**2 for v in var))
    e = [math.exp(m / c) for m in mus]
    n = len(start)
    sum_q = [sum(e[q] for q in range(n) if ranks[q] >= ranks[i]) for i in range(n)]
    a = [sum(1 for q in range(n) if ranks[q] == ranks[i]) for i in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                quotient = e[i] / sum_q[q]
                mu_term = (1 - quotient) if q == i else -quotient
                omega += mu_term / a[q]
                delta += quotient * (1 - quotient) / a[q]
        gamma = math.sqrt(var[i]) / c
        omega *= var[i] / c
        delta *= gamma * var[i] / c**2
        out.append(Skill(mus[i] + omega, math.sqrt(var[i] * max(1 - delta, kappa))))
    return out


@pytest.mark.parametrize(
    "places",
    [[1, 2, 3, 4], [1, 1, 3, 4], [1, 2, 2, 4], [1, 2, 3, 3], [1, 2, 2, 2], [2, 1, 4, 3]],
)
def test_four_players_with_ties_follow_the_plackett_luce_formulas(places: list[int]) -> None:
    start = [Skill(25, 25 / 3), Skill(28, 5), Skill(22, 7), Skill(25, 2)]
    got = rate([Entrant(p, skill=s) for p, s in zip(places, start, strict=True)])
    want = _plackett_luce_by_hand(start, places)
    for g, w in zip(got, want, strict=True):
        assert g.mu == pytest.approx(w.mu, rel=1e-9)
        assert g.sigma == pytest.approx(w.sigma, rel=1e-9)


def test_tied_players_of_equal_skill_move_alike_and_the_order_of_places_counts() -> None:
    after = rate([Entrant(p, skill=DEFAULT_SKILL) for p in (1, 1, 3, 4)])
    assert after[0] == after[1]
    # Plackett-Luce's tie rule: at equal skills the place after a tie for first gains as much as
    # the tied winners' (never more), and the last loses.
    assert after[0].mu >= after[2].mu > after[3].mu
    assert after[0].mu > DEFAULT_SKILL.mu > after[3].mu


skills = st.builds(Skill, st.floats(0, 50), st.floats(0.5, 25 / 3))


@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), skills)
def test_at_equal_ratings_a_better_place_never_gains_less(places: list[int], skill: Skill) -> None:
    after = rate([Entrant(p, skill=skill) for p in places])
    for i, pi in enumerate(places):
        for j, pj in enumerate(places):
            if pi < pj:
                assert after[i].mu - skill.mu >= after[j].mu - skill.mu - 1e-9


@given(st.lists(st.integers(1, 4), min_size=4, max_size=4), skills,
       st.lists(st.sampled_from(list(Level)), min_size=1, max_size=3))
def test_anchors_never_move(places: list[int], skill: Skill, levels: list[Level]) -> None:
    entrants = [Entrant(places[i], anchor=lv) for i, lv in enumerate(levels)]
    entrants += [Entrant(p, skill=skill) for p in places[len(levels):]]
    after = rate(entrants)
    for e, s in zip(entrants, after, strict=True):
        if e.anchor is not None:
            assert s == ANCHORS[e.anchor]
    assert dict(ANCHORS) == {
        Level.EASY: Skill(6.0, 1.0), Level.NORMAL: Skill(25.0, 1.0),
        Level.HARD: Skill(33.5, 1.0), Level.EXPERT: Skill(35.5, 1.0),
    }


def test_beating_an_expert_counts_for_more_than_beating_an_easy() -> None:
    vs_expert = rate([Entrant(1, skill=DEFAULT_SKILL), Entrant(2, anchor=Level.EXPERT)])[0]
    vs_easy = rate([Entrant(1, skill=DEFAULT_SKILL), Entrant(2, anchor=Level.EASY)])[0]
    assert vs_expert.mu > vs_easy.mu > DEFAULT_SKILL.mu


@given(st.integers(1, 4), skills)
def test_a_leaver_is_rated_last_whatever_place_it_was_given(place: int, skill: Skill) -> None:
    others = [Entrant(p, skill=skill) for p in (1, 2, 3)]
    left = rate([*others, Entrant(place, skill=skill, left=True)])
    last = rate([*others, Entrant(4, skill=skill)])
    assert left[3] == last[3]
    assert left[3].mu <= min(s.mu for s in left[:3])


def test_nothing_to_rate_changes_nothing() -> None:
    assert rate([Entrant(1, skill=Skill(30, 2))]) == [Skill(30, 2)]
    assert rate([Entrant(1, anchor=Level.EASY), Entrant(2, anchor=Level.HARD)]) == [
        ANCHORS[Level.EASY], ANCHORS[Level.HARD]]
    with pytest.raises(ValueError):
        Entrant(1)
    with pytest.raises(ValueError):
        Entrant(0, skill=DEFAULT_SKILL)


def test_display_rating_tiers_provisional_and_soft_reset() -> None:
    assert display_rating(DEFAULT_SKILL) == 1000
    assert display_rating(Skill(30, 1)) == 1000 + 40 * 27
    assert [tier_of(d) for d in (900, 1499, 1500, 1700, 1900, 2100, 3000)] == [
        Tier.BRONZE, Tier.BRONZE, Tier.SILVER, Tier.GOLD, Tier.PLATINUM, Tier.DIAMOND,
        Tier.DIAMOND]
    assert is_provisional(9) and not is_provisional(10)
    reset = soft_reset(Skill(31, 1.5))
    assert reset.mu == 31 and 1.5 < reset.sigma < DEFAULT_SKILL.sigma
    assert soft_reset(DEFAULT_SKILL) == DEFAULT_SKILL
