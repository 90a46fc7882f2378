"""Interactions: slash commands and clicks injected as INTERACTION_CREATE, and the REST
routes that answer them (callbacks, followups, ``@original`` edits)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Generator, Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.support.fake_discord import validate
from tests.support.fake_discord.models import (
    ALL_PERMISSIONS,
    ALREADY_ACKNOWLEDGED,
    ARRIVED,
    FLAG_EPHEMERAL,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    FakeChannel,
    FakeGuild,
    FakeUser,
    StoredMessage,
    _dumps,
    _HTTPError,
    _iso,
    _json,
    _sub_spec,
)

if TYPE_CHECKING:
    from tests.support.fake_discord.server import FakeDiscord


class InteractionHandle:
    """One injected interaction. ``await handle`` (or ``await handle.response(timeout)``) waits for
    the bot's callback and returns the handle, now carrying ``callback_type``, ``callback_data`` and
    ``latency`` (seconds from dispatch to the callback's arrival)."""

    def __init__(
        self,
        fake: FakeDiscord,
        payload: dict[str, Any],
        user: FakeUser,
        kind: str,
        name: str,
    ) -> None:
        self.fake = fake
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.kind = kind  # "slash" | "click"
        self.name = name  # command name or custom_id
        self.user = user
        self.guild_id = int(payload["guild_id"])
        self.channel_id = int(payload["channel_id"])
        self.source_message_id: int | None = (
            int(payload["message"]["id"]) if "message" in payload else None
        )
        self.dispatched_at: float = 0.0
        self.created_mono: float = 0.0
        self.callback_type: int | None = None
        self.callback_data: dict[str, Any] | None = None
        self.latency: float | None = None
        self.late = False
        #: the shard of the gateway session it was sent to ((id, count); None: unsharded)
        self.shard: tuple[int, int] | None = None
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self._future: asyncio.Future[InteractionHandle] = asyncio.get_running_loop().create_future()

    def __repr__(self) -> str:
        return (
            f"<InteractionHandle {self.kind} {self.name!r} id={self.id} user={self.user.username}"
            f" callback={self.callback_type} latency={self.latency}>"
        )

    def done(self) -> bool:
        return self._future.done()

    async def response(self, timeout: float = 5.0) -> InteractionHandle:  # noqa: ASYNC109
        """Wait for the callback; raises ``TimeoutError`` if none arrives in time."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except TimeoutError:
            raise TimeoutError(f"no callback within {timeout}s for {self!r}") from None

    def __await__(self) -> Generator[Any, None, InteractionHandle]:
        return self.response().__await__()

    @property
    def original(self) -> StoredMessage | None:
        if self.original_message_id is None:
            return None
        return self.fake.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.fake.messages[m] for m in self.followup_ids if m in self.fake.messages]

    @property
    def ephemeral(self) -> bool:
        data = self.callback_data or {}
        return bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)



# Which callback types answer which interaction types (Discord's interaction-response docs):
# PONG a PING; messages and defers a command, a component or a modal; updates a component or a
# modal submitted from one; choices an autocomplete; a modal anything but a modal or autocomplete.
_CALLBACKS_FOR: dict[int, frozenset[int]] = {
    1: frozenset({1}),
    2: frozenset({4, 5, 9, 10, 12}),
    3: frozenset({4, 5, 6, 7, 9, 10, 12}),
    4: frozenset({8}),
    5: frozenset({4, 5, 6, 7, 10, 12}),
}


class InteractionsMixin:
    """Interaction injection and the interaction routes of :class:`FakeDiscord`."""

    # ------------------------------------------------------------------ interaction injection

    def _member_for_interaction(self, guild: FakeGuild, user: FakeUser) -> dict[str, Any]:
        if user.id not in guild.members:
            guild.members[user.id] = ([], _iso())
        member = guild.member_payload(user)
        member["permissions"] = str(guild.permissions_of(user.id))
        return member

    def _base_interaction(
        self, itype: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
    ) -> dict[str, Any]:
        guild = self.guilds[channel.guild_id]
        return {
            "id": str(self._snowflake()),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_id": str(guild.id),
            "channel": channel.payload(),
            "channel_id": str(channel.id),
            "member": self._member_for_interaction(guild, user),
            "token": "fakeixtoken." + secrets.token_urlsafe(24),
            "version": 1,
            "app_permissions": str(self.bot_permissions_in(channel)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _find_command(self, name: str, guild_id: int) -> tuple[dict[str, Any] | None, bool]:
        for cmd in self.commands.get(guild_id, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, True
        for cmd in self.commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, False
        return None, False

    def _build_options(
        self,
        values: Mapping[str, Any],
        spec: list[dict[str, Any]] | None,
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in (spec or [])}
        out: list[dict[str, Any]] = []
        for name, value in values.items():
            ospec = by_name.get(name)
            if ospec is None and spec is not None and self.strict:
                raise LookupError(f"command has no option {name!r} (has {sorted(by_name)})")
            otype = ospec.get("type") if ospec else None
            if isinstance(value, FakeUser):
                otype = otype or 6
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if value.id in guild.members:
                    m = guild.member_payload(value, with_user=False)
                    m["permissions"] = str(guild.permissions_of(value.id))
                    resolved.setdefault("members", {})[str(value.id)] = m
                value = str(value.id)
            elif isinstance(value, FakeChannel):
                otype = otype or 7
                resolved.setdefault("channels", {})[str(value.id)] = value.payload() | {
                    "permissions": str(ALL_PERMISSIONS)
                }
                value = str(value.id)
            elif otype is None:
                if isinstance(value, bool):
                    otype = 5
                elif isinstance(value, int):
                    otype = 4
                elif isinstance(value, float):
                    otype = 10
                else:
                    otype = 3
            elif otype == 6 and isinstance(value, str | int):
                # a username or id: resolve to the user
                u = self.user(
                    value if isinstance(value, str) and not value.isdigit() else int(value)
                )
                resolved.setdefault("users", {})[str(u.id)] = u.payload()
                if u.id in guild.members:
                    m = guild.member_payload(u, with_user=False)
                    m["permissions"] = str(guild.permissions_of(u.id))
                    resolved.setdefault("members", {})[str(u.id)] = m
                value = str(u.id)
            out.append({"name": name, "type": otype, "value": value})
        if spec is not None and self.strict:
            missing = [o["name"] for o in spec if o.get("required") and o["name"] not in values]
            if missing:
                raise LookupError(f"missing required options {missing}")
        return out

    async def slash(
        self,
        user: FakeUser | str | int,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        group: str | None = None,
        channel: FakeChannel | str | int | None = None,
        guild: FakeGuild | int | None = None,
    ) -> InteractionHandle:
        """Dispatch a slash command (INTERACTION_CREATE type 2) as ``user``.

        ``options`` maps option names to values (str/int/float/bool, FakeUser, FakeChannel).
        In strict mode the command must have been synced, the option names must exist and the
        user must hold the command's ``default_member_permissions``."""
        u = self.user(user)
        ch = self.channel(channel, guild)
        g = self.guilds[ch.guild_id]
        cmd, is_guild = self._find_command(name, g.id)
        if cmd is None and self.strict:
            raise LookupError(
                f"command /{name} was not synced (have {sorted(self.command_names())})"
            )
        if cmd is not None and self.strict:
            needed = cmd.get("default_member_permissions")
            if needed is not None:
                perms = g.permissions_of(u.id)
                if int(needed) & perms != int(needed):
                    raise PermissionError(f"{u.username} lacks permissions {needed} for /{name}")
        resolved: dict[str, dict[str, Any]] = {}
        spec: list[dict[str, Any]] | None = cmd.get("options", []) if cmd is not None else None
        if group is not None:
            gspec = _sub_spec(spec, group, 2) if spec is not None else None
            sspec = _sub_spec(gspec, subcommand or "", 1) if gspec is not None else None
            inner = self._build_options(options or {}, sspec, resolved, g)
            opts = [
                {
                    "name": group,
                    "type": 2,
                    "options": [{"name": subcommand, "type": 1, "options": inner}],
                }
            ]
        elif subcommand is not None:
            sspec = _sub_spec(spec, subcommand, 1) if spec is not None else None
            if spec is not None and sspec is None and self.strict:
                raise LookupError(f"/{name} has no subcommand {subcommand!r}")
            inner = self._build_options(options or {}, sspec, resolved, g)
            opts = [{"name": subcommand, "type": 1, "options": inner}]
        else:
            opts = self._build_options(options or {}, spec, resolved, g)
        data: dict[str, Any] = {
            "id": str(cmd["id"]) if cmd is not None else str(self._snowflake()),
            "name": name,
            "type": 1,
            "options": opts,
        }
        if resolved:
            data["resolved"] = resolved
        if is_guild:
            data["guild_id"] = str(g.id)
        payload = self._base_interaction(2, u, ch, data)
        return self._send_interaction(payload, u, "slash", name)

    async def click(
        self,
        user: FakeUser | str | int,
        message_id: int | StoredMessage,
        custom_id: str,
        *,
        channel: FakeChannel | str | int | None = None,
        values: list[str] | None = None,
        unchecked: bool = False,
    ) -> InteractionHandle:
        """Dispatch a component interaction (type 3) on a stored message, as ``user``.

        The message must exist and be visible to the user; in strict mode the component must be
        on it and enabled. ``values`` makes it a select-menu submission. ``unchecked`` sends a
        custom id even when the message does not show it (a modified client; harness shortcuts)."""
        u = self.user(user)
        mid = message_id.id if isinstance(message_id, StoredMessage) else int(message_id)
        stored = self.messages.get(mid)
        if stored is None or stored.deleted:
            raise LookupError(f"unknown message {mid}")
        if not stored.visible_to(u.id):
            raise PermissionError(f"message {mid} is ephemeral for someone else than {u.username}")
        comp = stored.find_component(custom_id)
        if comp is None and self.strict and not unchecked:
            raise LookupError(f"no component {custom_id!r} on message {mid}: {stored.custom_ids()}")
        if comp is not None and comp.get("disabled") and self.strict:
            raise PermissionError(f"component {custom_id!r} on message {mid} is disabled")
        ctype = int(comp.get("type", 2)) if comp is not None else (3 if values is not None else 2)
        ch = self.channel(channel) if channel is not None else self.channel(stored.channel_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype in (3, 5, 6, 7, 8) or values is not None:
            data["values"] = list(values or [])
            if data["values"] and self.strict and comp is not None and ctype == 3:
                allowed = {o.get("value") for o in comp.get("options", [])}
                bad = [v for v in data["values"] if v not in allowed]
                if bad:
                    raise LookupError(f"values {bad} are not options of select {custom_id!r}")
        payload = self._base_interaction(3, u, ch, data)
        payload["message"] = json.loads(_dumps(validate.as_returned(stored.data)))
        return self._send_interaction(payload, u, "click", custom_id)

    def _send_interaction(
        self, payload: dict[str, Any], user: FakeUser, kind: str, name: str
    ) -> InteractionHandle:
        session = self._interaction_session(int(payload["guild_id"]))
        handle = InteractionHandle(self, payload, user, kind, name)
        handle.shard = session.shard
        self._prune_interactions()
        self.interactions[handle.id] = handle
        self._by_token[handle.token] = handle
        self._handle_order.append(handle)
        handle.created_mono = self._now()
        handle.dispatched_at = time.perf_counter()
        session.dispatch("INTERACTION_CREATE", payload)
        return handle

    def _prune_interactions(self) -> None:
        """Forget interactions whose token expired (a minute's grace): bounded memory in soaks."""
        horizon = self._now() - self.token_ttl - 60.0
        order = self._handle_order
        while order and order[0].created_mono < horizon:
            old = order.popleft()
            self.interactions.pop(old.id, None)
            self._by_token.pop(old.token, None)
            self._expired_tokens[old.token] = None  # still answered 401 50027, not 404
            if len(self._expired_tokens) > 100_000:
                del self._expired_tokens[next(iter(self._expired_tokens))]

    def _resolve(self, handle: InteractionHandle) -> None:
        self.latencies.append(handle.latency or 0.0)
        if not self.keep_payloads:
            handle.payload = {}
        if not handle._future.done():
            handle._future.set_result(handle)


    # ------------------------------------------------------------------ REST: interactions

    async def _h_callback(self, request: web.Request, p: dict[str, str]) -> web.Response:
        arrived = request.get(ARRIVED) or time.perf_counter()  # before the body was checked
        handle = self.interactions.get(int(p["iid"]))
        if handle is None or handle.token != p["token"]:
            raise _HTTPError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body, files = await self._body(request)
        if handle.callback_type is not None:
            raise _HTTPError(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        ctype = int(body.get("type", 0))
        cdata = body.get("data") or {}
        late = (
            self.callback_deadline is not None
            and self._now() - handle.created_mono > self.callback_deadline
        )
        handle.latency = arrived - handle.dispatched_at
        if late:
            handle.late = True
            handle.callback_type = ctype
            handle.callback_data = cdata
            self._resolve(handle)
            raise _HTTPError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        allowed = _CALLBACKS_FOR.get(handle.type, frozenset())
        if self.validation and ctype not in allowed:
            self.refuse(request.method, request.path, [validate.Problem(
                ("type",), "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Callback type {ctype} does not answer an interaction of type {handle.type} "
                f"(allowed: {sorted(allowed)}).", ctype)])
        ch = self.channel(handle.channel_id)
        ephemeral_user = handle.user.id if int(cdata.get("flags") or 0) & FLAG_EPHEMERAL else None
        message: StoredMessage | None = None
        if ctype == 1:
            pass
        elif ctype == 4:
            mtype = 20 if handle.kind == "slash" else 0
            message = self._new_message(
                ch, cdata, files, mtype=mtype, ephemeral_user=ephemeral_user, interaction=handle
            )
            handle.original_message_id = message.id
        elif ctype == 5:
            mtype = 20 if handle.kind == "slash" else 0
            message = self._new_message(
                ch,
                {},
                [],
                mtype=mtype,
                ephemeral_user=ephemeral_user,
                interaction=handle,
                loading=True,
            )
            handle.original_message_id = message.id
        elif ctype in (6, 7):
            if handle.source_message_id is None:
                raise _HTTPError(400, 50035, f"Invalid Form Body: type {ctype} needs a component")
            source = self.messages.get(handle.source_message_id)
            if source is None or source.deleted:
                raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
            handle.original_message_id = source.id
            if ctype == 7:
                message = self._edit_message(source, cdata, files)
        elif ctype in (8, 9, 10, 12):
            pass  # autocomplete result, modal, premium required, launch activity: recorded only
        else:
            raise _HTTPError(400, 50035, f"Invalid Form Body: unknown callback type {ctype}")
        handle.callback_type = ctype
        handle.callback_data = cdata
        self._resolve(handle)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        shown = message or handle.original
        interaction: dict[str, Any] = {
            "id": str(handle.id),
            "type": handle.type,
            "activity_instance_id": None,
            "response_message_id": str(handle.original_message_id)
            if handle.original_message_id is not None
            else None,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(shown is not None and shown.ephemeral),
        }
        resource: dict[str, Any] = {"type": ctype}
        if message is not None:
            resource["message"] = validate.as_returned(message.data)
        return _json({"interaction": interaction, "resource": resource})

    def _hook_handle(self, p: dict[str, str]) -> InteractionHandle:
        if int(p["app"]) != self.application_id:
            raise _HTTPError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        handle = self._by_token.get(p["token"])
        if handle is None and p["token"] in self._expired_tokens:
            raise _HTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if handle is None:
            raise _HTTPError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if self._now() - handle.created_mono > self.token_ttl:
            raise _HTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if handle.callback_type is None or handle.late:
            raise _HTTPError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return handle

    def _hook_message(self, handle: InteractionHandle, mid: str) -> StoredMessage:
        if mid == "@original":
            target = handle.original_message_id
        else:
            target = int(mid)
            if target not in handle.followup_ids and target != handle.original_message_id:
                raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
        stored = self.messages.get(target) if target is not None else None
        if stored is None or stored.deleted:
            raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return stored

    async def _h_followup(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        body, files = await self._body(request)
        original = handle.original
        if handle.callback_type == 5 and original is not None and original.loading:
            # The first followup after a thinking defer replaces the "thinking" message.
            stored = self._edit_message(original, body, files)
        else:
            ch = self.channel(handle.channel_id)
            eph = handle.user.id if int(body.get("flags") or 0) & FLAG_EPHEMERAL else None
            if not (body.get("content") or body.get("embeds") or body.get("components") or files):
                raise _HTTPError(400, 50006, "Cannot send an empty message")
            stored = self._new_message(ch, body, files, ephemeral_user=eph, interaction=handle)
            handle.followup_ids.append(stored.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(validate.as_returned(stored.data))
        return web.Response(status=204)

    async def _h_hook_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        return _json(validate.as_returned(self._hook_message(handle, p["mid"]).data))

    async def _h_hook_edit(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        stored = self._hook_message(handle, p["mid"])
        body, files = await self._body(request)
        return _json(validate.as_returned(self._edit_message(stored, body, files).data))

    async def _h_hook_delete(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        self._delete_message(self._hook_message(handle, p["mid"]))
        return web.Response(status=204)
