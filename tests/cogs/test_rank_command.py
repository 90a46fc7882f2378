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
        assert f"Rank **{rating.rank}** of 2" in text, text
        assert "2 ranked games" in text and "Provisional: 2 of 10" in text, text
        assert any(t in text for t in ("Bronze", "Silver", "Gold", "Platinum", "Diamond")), text
    # someone else's rank, asked by name
    r = await host.slash(world.channel, "tienlen rank", user=guest)
    assert f"<@{guest.id}>" in said(r.response) and r.ephemeral
    ranks = {(await world.bot.store.get_rating(world.guild.id, p.id)).rank  # type: ignore[union-attr]
             for p in (host, guest)}
    assert ranks in ({1, 2}, {1})


async def test_rank_of_someone_never_rated_is_a_short_private_answer(world: Any) -> None:
    (person,) = people(world, 1)
    r = await person.slash(world.channel, "tienlen rank")
    assert r.ephemeral and "no rating here yet" in said(r.response), said(r.response)
    assert await world.bot.store.get_rating(world.guild.id, person.id) is None
