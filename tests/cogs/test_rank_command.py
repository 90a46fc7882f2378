"""`/tienlen rank [user]` through SimCord (issue #25): after two ranked games each player's rank
shows the rating, tier, rank and last change the store holds; someone never rated gets a short
private answer."""

from __future__ import annotations

from typing import Any

from cogs.tables import TablePhase

from .tablekit import board, said, take_turn


def people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


async def ranked_game(world: Any, host: Any, guest: Any) -> None:
    await host.slash(world.channel, "tienlen start", ranked="on")
    live = next(t for t in world.bot.table_service.tables.values() if t.table.status == "open")
    await world.env.settle()
    await guest.click(board(world), label="Join")
    await host.click(board(world), label="Start")
    players = {host.id: host, guest.id: guest}
    for step in range(600):
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(world, live, players, shed=True, prefer_pass=step % 6 == 1)
    await world.env.settle()
    assert live.phase is TablePhase.FINISHED
    await host.slash(world.channel, "tienlen stop")
    await world.env.settle()


async def test_rank_after_two_ranked_games_shows_what_the_store_holds(world: Any) -> None:
    host, guest = people(world, 2)
    await ranked_game(world, host, guest)
    await ranked_game(world, host, guest)
    for person in (host, guest):
        rating = await world.bot.store.get_rating(world.guild.id, person.id)
        assert rating is not None and rating.games == 2
        assert rating.last_change != 0  # a two-player game always moves both
        r = await person.slash(world.channel, "tienlen rank")
        text = said(r.response)
        assert r.ephemeral, r
        assert f"<@{person.id}>" in text, text
        assert f"{rating.display:,}" in text, text
        sign = "+" if rating.last_change > 0 else "-"
        assert f"last game: {sign}{abs(rating.last_change):,}" in text, text
        assert rating.rank is None and "listed apart, with the provisional players" in text, text
        assert "2 ranked games" in text and "Provisional: 2 of 10" in text, text
        assert any(t in text for t in ("Bronze", "Silver", "Gold", "Platinum", "Diamond")), text
    # someone else's rank, asked by name
    r = await host.slash(world.channel, "tienlen rank", user=guest)
    assert f"<@{guest.id}>" in said(r.response) and r.ephemeral


async def test_rank_of_someone_never_rated_is_a_short_private_answer(world: Any) -> None:
    (person,) = people(world, 1)
    r = await person.slash(world.channel, "tienlen rank")
    assert r.ephemeral and "no rating here yet" in said(r.response), said(r.response)
    assert await world.bot.store.get_rating(world.guild.id, person.id) is None


async def test_rank_among_ranked_players_as_the_ladder_numbers_them(world: Any) -> None:
    """Past 10 ranked games a person is numbered among the ranked players only: a provisional
    player rated higher does not push them down (the ladder lists that one apart)."""
    from data import Seat, SeatResult

    first, second, newcomer = people(world, 3)
    store = world.bot.store

    async def game(*order: Any) -> None:
        seats = [Seat(p.name, user_id=p.id) for p in order]
        started = await store.start_game(world.guild.id, 10, order[0].id, "{}", 0, seats, "{}")
        await store.settle_game(started.id, [], [SeatResult(i, i + 1) for i in range(len(order))])

    for _ in range(10):
        await game(first, second)
    await game(newcomer, second)
    await game(newcomer, first)
    ratings = {p.id: await store.get_rating(world.guild.id, p.id) for p in (first, second,
                                                                              newcomer)}
    assert ratings[newcomer.id].display > ratings[second.id].display  # type: ignore[union-attr]
    for who, rank in ((first, 1), (second, 2)):
        text = (await who.slash(world.channel, "tienlen rank")).response.content
        assert f"Rank **{rank}** of 2 in this server." in text, text
    text = (await newcomer.slash(world.channel, "tienlen rank")).response.content
    assert "Rank **" not in text and "Provisional: 2 of 10" in text, text
