"""A modified client through SimCord: slash commands with any option values and button presses
with any custom id, sent as raw interaction payloads (SimCord's own verbs check them as Discord's
client would, which is exactly what a hostile client skips)."""

from __future__ import annotations

from typing import Any

import simcord
from simcord import actors as simcord_actors
from simcord.actors import ChannelHandle, _resolve_visible_command, _visible_message
from simcord.backend import serializers
from simcord.enums import AppCommandType, ComponentType, InteractionType


async def forge_slash(actor: Any, channel: Any, path: str, options: list[dict[str, Any]],
                      *, resolved: dict[str, Any] | None = None,
                      raw: dict[str, Any] | None = None) -> simcord.InteractionResult:
    """`/path` with `options` exactly as given (`{"name", "type", "value"}` each), or with the
    whole `raw` data payload."""
    parts = path.split()
    root = _resolve_visible_command(actor, channel.id, parts[0], AppCommandType.CHAT_INPUT)
    nested: list[dict[str, Any]] = options
    for name in reversed(parts[1:]):
        nested = [{"name": name, "type": 1, "options": nested}]
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": 1,
                            "options": nested}
    if resolved:
        data["resolved"] = resolved
    if raw is not None:
        data = {"id": root["id"], **raw}
    return await actor._dispatch_interaction(InteractionType.APPLICATION_COMMAND, channel, data)


def opt(name: str, value: Any, kind: int = 4) -> dict[str, Any]:
    """One raw option (type 4 integer, 3 string, 5 boolean, 6 user, 10 number)."""
    return {"name": name, "type": kind, "value": value}


async def forge_click(actor: Any, message: Any, custom_id: str) -> simcord.InteractionResult:
    """A press of a button with `custom_id` on `message` (the button is put on the message the
    interaction carries, as a modified client would)."""
    message = getattr(message, "message", message)
    stored = _visible_message(actor, message)
    backend = actor._env.backend
    payload = dict(serializers.message_payload(backend, stored))
    payload["components"] = [{"type": 1, "components": [
        {"type": ComponentType.BUTTON, "style": 2, "label": "x", "custom_id": custom_id}]}]
    channel = ChannelHandle(actor._env, getattr(actor, "guild", None),
                            backend.get_channel(stored.channel_id))
    return await actor._dispatch_interaction(  # type: ignore[no-any-return]
        InteractionType.MESSAGE_COMPONENT, channel,
        {"custom_id": custom_id, "component_type": ComponentType.BUTTON},
        extra={"message": payload}, source_message_id=stored.id)


def reply_text(result: simcord.InteractionResult) -> str:
    """The text the presser was answered with (the response or the last followup)."""
    messages = [m for m in [result.response, *result.followups] if m is not None]
    assert messages, f"no answer: {result!r}"
    return messages[-1].content


async def forge_select(actor: Any, message: Any, custom_id: str, values: list[str], *,
                       unseen: bool = False) -> simcord.InteractionResult:
    """A choice of `values` in a select with `custom_id` on `message`, as a modified client would
    send it (any values). ``unseen``: sent by someone the channel does not let see the message
    (a real client could not; the interaction carries their permissions in the channel)."""
    message = getattr(message, "message", message)
    backend = actor._env.backend
    stored = (backend.get_message(message.channel.id, message.id) if unseen
              else _visible_message(actor, message))
    payload = dict(serializers.message_payload(backend, stored))
    payload["components"] = [{"type": 1, "components": [
        {"type": ComponentType.STRING_SELECT, "custom_id": custom_id,
         "options": [{"label": v, "value": v} for v in values]}]}]
    channel = ChannelHandle(actor._env, getattr(actor, "guild", None),
                            backend.get_channel(stored.channel_id))
    check = simcord_actors._check_actor_channel
    if unseen:  # SimCord's client-side check, which a modified client skips
        simcord_actors._check_actor_channel = lambda actor, channel: None
    try:
        return await actor._dispatch_interaction(  # type: ignore[no-any-return]
            InteractionType.MESSAGE_COMPONENT, channel,
            {"custom_id": custom_id, "component_type": ComponentType.STRING_SELECT,
             "values": values},
            extra={"message": payload}, source_message_id=stored.id)
    finally:
        simcord_actors._check_actor_channel = check
