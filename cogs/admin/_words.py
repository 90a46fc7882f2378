"""What the admin tools say, in the reader's language (every sentence through the catalogues)."""

from __future__ import annotations

from datetime import datetime

from cogs.i18n import Words
from data import AdminChange, AdminLogPage


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:f>"


def change_done(w: Words, change: AdminChange) -> str:
    who = f"<@{change.user_id}>"
    chips = w.num(change.chips_after or 0)
    if change.action == "grant":
        return w._("Granted **{amount}** chips to {user} ({reason}): they now hold **{chips}**.",
                   amount=w.num(change.delta), user=who, reason=change.reason, chips=chips)
    if change.action == "take":
        return w._("Took **{amount}** chips from {user} ({reason}): they now hold **{chips}**.",
                   amount=w.num(-change.delta), user=who, reason=change.reason, chips=chips)
    return w._("Set {user}'s chips to **{chips}** ({reason}; a change of {delta}).",
               user=who, chips=chips, reason=change.reason, delta=w.signed(change.delta))


def reset_done(w: Words, change: AdminChange) -> str:
    if change.stats == "clear":
        return w.ngettext(
            "Leaderboard reset: {n} player is back to {chips} chips; stats cleared.",
            "Leaderboard reset: {n} players are back to {chips} chips; stats cleared.",
            change.players, chips=w.num(change.amount or 0))
    return w.ngettext(
        "Leaderboard reset: {n} player is back to {chips} chips; stats kept.",
        "Leaderboard reset: {n} players are back to {chips} chips; stats kept.",
        change.players, chips=w.num(change.amount or 0))


def log_line(w: Words, change: AdminChange) -> str:
    admin, when = f"<@{change.admin_id}>", _when(change.created_at)
    if change.action == "reset":
        stats = (w._("stats cleared") if change.stats == "clear" else w._("stats kept"))
        return w.ngettext(
            "{when} {admin} reset the leaderboard ({n} player changed, {stats}): {reason}",
            "{when} {admin} reset the leaderboard ({n} players changed, {stats}): {reason}",
            change.players, when=when, admin=admin, stats=stats, reason=change.reason)
    user, chips = f"<@{change.user_id}>", w.num(change.chips_after or 0)
    if change.action == "grant":
        return w._("{when} {admin} granted {amount} to {user} (now {chips}): {reason}",
                   when=when, admin=admin, amount=w.num(change.delta), user=user, chips=chips,
                   reason=change.reason)
    if change.action == "take":
        return w._("{when} {admin} took {amount} from {user} (now {chips}): {reason}",
                   when=when, admin=admin, amount=w.num(-change.delta), user=user, chips=chips,
                   reason=change.reason)
    return w._("{when} {admin} set {user} to {chips} ({delta}): {reason}",
               when=when, admin=admin, user=user, chips=chips, delta=w.signed(change.delta),
               reason=change.reason)


def log_title(w: Words, member: str | None) -> str:
    if member is None:
        return w._("Admin changes")
    return w._("Admin changes for {member}", member=member)


def log_footer(w: Words, page: AdminLogPage) -> str:
    return w.ngettext("Page {page} of {pages} · {n} change", "Page {page} of {pages} · {n} changes",
                      page.total, page=page.page, pages=max(page.pages, 1))
