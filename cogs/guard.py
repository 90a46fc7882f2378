"""The edge of the Discord side: every interaction is answered, no input is trusted.

A modified client can send any option value and any custom id, so nothing Discord's client
checks is taken for granted here:

* :class:`GuardedTree` checks every slash command's options against what the command declares
  (its `app_commands.Range` bounds, `Literal` choices, string lengths, option types, resolved
  users) before the command runs; a bad value gets a short private refusal naming the option
  and what is allowed, and nothing is called.
* :func:`handle_command_error` is the one error handler of the cogs and the tree: an expected
  refusal is answered, not logged as an error; anything else is logged once with an error id
  the user can quote, and answered with a short apology.
* :func:`answer_unclaimed` answers a button press that no button of the bot claims.
* :func:`clip` and :func:`fit` keep anything a user typed short in a reply and every reply inside
  Discord's limits.
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as OptionType

from cogs.i18n import N_, Words, person_language, words

log = logging.getLogger("cogs.guard")

MAX_ECHO = 40
"""Characters of anything a user typed that a reply may repeat."""
MAX_CONTENT = 2000
"""Discord's limit on a message's content."""
SNOWFLAKE_MAX = 2**63 - 1
"""Table ids, versions and Discord ids fit in a signed 64-bit integer (SQLite's INTEGER)."""
DISCORD_INT = 2**53
"""Discord's bounds for an integer or number option that declares none."""
MAX_TEXT = 6000
"""Discord's bound for a text option that declares none."""
HANDLED = "tienlen.handled"
"""Key in `interaction.extras` set once an error of the interaction was answered (and logged)."""

NOT_UNDERSTOOD = N_("This command was not understood; nothing was changed.")
UNKNOWN_BUTTON = N_("This button is not known any more.")
BAD_TABLE_ID = N_("This button's table id is not valid.")
NO_SUCH_CARD = N_("This button's card is not in any deck.")
OTHER_CHANNEL = N_("This button belongs to a table in another channel.")
NOT_A_PLAY = N_("This choice is not a play of your hand.")

_SNOWFLAKE_TYPES = {
    OptionType.user.value: ("users", "members"),
    OptionType.channel.value: ("channels",),
    OptionType.role.value: ("roles",),
    OptionType.mentionable.value: ("users", "members", "roles"),
    OptionType.attachment.value: ("attachments",),
}


# ---------------------------------------------------------------------- words
def reader(interaction: discord.Interaction[Any]) -> Words:
    """The words of the person who pressed or typed: Vietnamese for a Vietnamese Discord, English
    otherwise (every sentence of this module is in the catalogues, :mod:`cogs.i18n`)."""
    return words(person_language(interaction.locale))


# ---------------------------------------------------------------------- limits
def clip(value: object, limit: int = MAX_ECHO) -> str:
    """What a user sent, shown safely in a reply: a repr (invisible characters show as escapes),
    at most ``limit`` characters, with no backticks or mentions that could break the message."""
    if isinstance(value, str):
        value = value[: limit + 1]  # never read more of a huge string than is shown
    text = value if isinstance(value, str) and value.isprintable() else repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("`", "'").replace("@", "@\u200b")


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to Discord's content limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def new_error_id() -> str:
    """A short id for an unexpected error: in the log line and in the apology."""
    return secrets.token_hex(4).upper()


# ---------------------------------------------------------------------- answering
UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction it no longer knows (answered after its 3 s)."""


async def answer(interaction: discord.Interaction[Any], text: str) -> None:
    """A private reply, whether or not the interaction was answered already. Never raises: an
    interaction Discord no longer accepts is logged as a warning."""
    text = fit(text)
    none = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=none)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=none)
    except discord.HTTPException as error:
        log.warning("could not answer interaction %s: %s", interaction.id, error)


async def apologise(interaction: discord.Interaction[Any], error: BaseException,
                    what: str) -> str:
    """Log an unexpected error once (``what`` names the action and the table, never a card or a
    token) and answer with an apology carrying an error id. Returns the id."""
    error_id = new_error_id()
    interaction.extras[HANDLED] = True
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        # The answer came after Discord's 3 s (a machine too busy): Discord dropped the press,
        # and no reply can reach the person any more. One line, no traceback.
        log.warning("[error %s] %s answered too late: Discord no longer knew the interaction "
                    "(channel %s)", error_id, what, interaction.channel_id)
        return error_id
    log.error("[error %s] %s failed (channel %s)", error_id, what, interaction.channel_id,
              exc_info=(type(error), error, error.__traceback__))
    await answer(interaction, reader(interaction)._(
        "Sorry, something went wrong; nothing was changed. Error id: `{error_id}`.",
        error_id=error_id))
    return error_id


class Refused(Exception):
    """An expected refusal of the Discord side: its text is the private reply, nothing changed."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@contextlib.asynccontextmanager
async def guarded(interaction: discord.Interaction[Any], what: str) -> AsyncIterator[None]:
    """Run a button callback: a :class:`Refused` is answered, anything else apologised for."""
    try:
        yield
    except Refused as refusal:
        interaction.extras[HANDLED] = True
        await answer(interaction, refusal.text)
    except Exception as error:
        await apologise(interaction, error, what)


# ---------------------------------------------------------------------- slash options
class OptionRefused(app_commands.AppCommandError):
    """A slash option that is not what the command declares; ``text`` is the refusal."""

    def __init__(self, option: str, text: str) -> None:
        super().__init__(f"option {option!r} refused")
        self.option = option
        self.text = text


def _allowed(w: Words, param: app_commands.Parameter) -> str:
    """What ``param`` accepts, in words."""
    kind = param.type
    if param.choices:
        names = ", ".join(f"`{c.value}`" for c in param.choices)
        return w._("one of {choices}", choices=names)
    if kind is OptionType.integer:
        low = DISCORD_INT * -1 if param.min_value is None else param.min_value
        high = DISCORD_INT if param.max_value is None else param.max_value
        return w._("a whole number from {low} to {high}", low=w.num(low), high=w.num(high))
    if kind is OptionType.number:
        low = DISCORD_INT * -1 if param.min_value is None else param.min_value
        high = DISCORD_INT if param.max_value is None else param.max_value
        return w._("a number from {low} to {high}", low=w.num(low), high=w.num(high))
    if kind is OptionType.string:
        low = 0 if param.min_value is None else param.min_value
        high = MAX_TEXT if param.max_value is None else param.max_value
        return w._("text of {low} to {high} characters", low=w.num(low), high=w.num(high))
    if kind is OptionType.boolean:
        return w._("true or false")
    if kind in (OptionType.user, OptionType.mentionable):
        return w._("a member of this server")
    return w._("something this server has")


def _within(value: float, low: float | None, high: float | None, default: float) -> bool:
    return (default * -1 if low is None else low) <= value <= (default if high is None else high)


def _resolved(resolved: Mapping[str, Any], kinds: Iterable[str], snowflake: str) -> bool:
    return any(isinstance(resolved.get(kind), Mapping) and snowflake in resolved[kind]
               for kind in kinds)


def _value_ok(param: app_commands.Parameter, value: Any, resolved: Mapping[str, Any]) -> bool:
    kind = param.type
    if param.choices and value not in [c.value for c in param.choices]:
        return False
    if kind is OptionType.integer:
        return type(value) is int and _within(value, param.min_value, param.max_value,
                                              DISCORD_INT)
    if kind is OptionType.number:
        return (type(value) in (int, float) and math.isfinite(value)
                and _within(value, param.min_value, param.max_value, DISCORD_INT))
    if kind is OptionType.string:
        return isinstance(value, str) and _within(len(value), param.min_value or 0,
                                                  param.max_value, MAX_TEXT)
    if kind is OptionType.boolean:
        return type(value) is bool
    if kind.value in _SNOWFLAKE_TYPES:
        return (isinstance(value, str) and value.isascii() and value.isdigit()
                and len(value) <= 20 and int(value) <= SNOWFLAKE_MAX
                and _resolved(resolved, _SNOWFLAKE_TYPES[kind.value], value))
    return False


def _leaf_options(data: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The options given to the command itself (below any subcommand), or None when the payload
    is not the shape Discord sends."""
    options = data.get("options", [])
    for _depth in range(3):
        if not isinstance(options, list) or not all(
            isinstance(o, Mapping) and isinstance(o.get("name"), str)
            and type(o.get("type")) is int for o in options
        ):
            return None
        nested = [o for o in options if o["type"] in (1, 2)]
        if not nested:
            return options
        if len(nested) != 1 or len(options) != 1:
            return None
        options = nested[0].get("options", [])
    return None


def check_options(interaction: discord.Interaction[Any]) -> None:
    """Raise :class:`OptionRefused` unless every option of this slash command is what the command
    declares. Cheap: a few comparisons per option, no store or engine call."""
    w = reader(interaction)
    data = interaction.data
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise OptionRefused("?", w._(NOT_UNDERSTOOD))
    if data.get("type", 1) != 1:
        return  # a context menu: no options
    options = _leaf_options(data)
    if options is None:
        raise OptionRefused("?", w._(NOT_UNDERSTOOD))
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return  # the tree answers an unknown command
    resolved = data.get("resolved")
    if not isinstance(resolved, Mapping):
        resolved = {}
    params = {p.display_name: p for p in command.parameters}
    given = set()
    for option in options:
        name = option["name"]
        param = params.get(name)
        if param is None or name in given:
            raise OptionRefused(name, w._("There is no option **{option}**.",
                                          option=clip(name)))
        given.add(name)
        value = option.get("value")
        if option["type"] != param.type.value or not _value_ok(param, value, resolved):
            raise OptionRefused(name, w._("**{option}** must be {allowed} (not {value}).",
                                          option=name, allowed=_allowed(w, param),
                                          value=clip(value)))
    for name, param in params.items():
        if param.required and name not in given:
            raise OptionRefused(name, w._("**{option}** is required.", option=name))


# ---------------------------------------------------------------------- errors
async def handle_command_error(interaction: discord.Interaction[Any],
                               error: app_commands.AppCommandError) -> None:
    """The error handler of every cog and of the tree (the first to run answers; the second sees
    the interaction handled and does nothing)."""
    if interaction.extras.get(HANDLED):
        return
    interaction.extras[HANDLED] = True
    w = reader(interaction)
    if isinstance(error, OptionRefused):
        log.info("refused option %s of /%s", clip(error.option), _command_name(interaction))
        await answer(interaction, error.text)
    elif isinstance(error, app_commands.NoPrivateMessage):
        await answer(interaction, w._("This command works only in a server."))
    elif isinstance(error, app_commands.CheckFailure):
        await answer(interaction, w._("You are not allowed to do that here."))
    elif isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch
                    | app_commands.CommandNotFound):
        log.warning("a command the bot does not understand: /%s (%s)",
                    _command_name(interaction), type(error).__name__)
        await answer(interaction, w._("This command is not known (any more).")
                     if isinstance(error, app_commands.CommandNotFound)
                     else w._(NOT_UNDERSTOOD))
    else:
        original = getattr(error, "original", None) or error
        await apologise(interaction, original, f"command /{_command_name(interaction)}")


def _command_name(interaction: discord.Interaction[Any]) -> str:
    data = interaction.data
    name = data.get("name") if isinstance(data, Mapping) else None
    return clip(name) if name is not None else "?"


class GuardedTree(app_commands.CommandTree[Any]):
    """The command tree: options are checked before any command runs, and every error of a
    command is answered (:func:`handle_command_error`)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            check_options(interaction)
        except OptionRefused as refusal:
            await handle_command_error(interaction, refusal)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError, /) -> None:
        await handle_command_error(interaction, error)

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        # An error outside the command (an unknown command, a payload discord.py cannot read)
        # would end in a task nobody awaits or in the default logger: answer it here.
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError as error:
            await handle_command_error(interaction, error)
        except Exception as error:
            wrapped = app_commands.AppCommandError("unexpected error")
            wrapped.original = error  # type: ignore[attr-defined]
            await handle_command_error(interaction, wrapped)


# ---------------------------------------------------------------------- buttons
def _components(items: Iterable[Any]) -> Iterable[Any]:
    for item in items:
        yield item
        yield from _components(getattr(item, "children", ()) or ())


def claimed(interaction: discord.Interaction[Any],
            items: Iterable[type[discord.ui.DynamicItem[Any]]]) -> bool:
    """Whether discord.py will run one of ``items`` for this button press: the custom id fits a
    template and the pressed message carries that button."""
    data = interaction.data
    custom_id = data.get("custom_id") if isinstance(data, Mapping) else None
    message = interaction.message
    if not isinstance(custom_id, str) or message is None:
        return False
    if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id)
               for item in items):
        return False
    return any(getattr(c, "custom_id", None) == custom_id
               for c in _components(message.components))


async def answer_unclaimed(interaction: discord.Interaction[Any],
                           items: Iterable[type[discord.ui.DynamicItem[Any]]]) -> None:
    """Answer a button press (or select, or form) that no button of the bot will handle."""
    if interaction.type not in (discord.InteractionType.component,
                                discord.InteractionType.modal_submit):
        return
    if interaction.type is discord.InteractionType.component and claimed(interaction, items):
        return
    data: Mapping[str, Any] = interaction.data or {}
    log.info("unclaimed component %s", clip(data.get("custom_id")))
    await answer(interaction, reader(interaction)._(UNKNOWN_BUTTON))
