"""The REST routes: login, application, gateway URL, commands, guilds, channels, messages."""

from __future__ import annotations

import email.utils
import hashlib
import json
import re
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.support.fake_discord import validate
from tests.support.fake_discord.models import (
    API_VERSION,
    ARRIVED,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTENT_GUILD_MESSAGES,
    UNAUTHORIZED,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    ClientRequest,
    FakeChannel,
    FakeUser,
    StoredMessage,
    _dumps,
    _embed,
    _Handler,
    _HTTPError,
    _iso,
    _json,
    _number_components,
    log,
)

if TYPE_CHECKING:
    from tests.support.fake_discord.interactions import InteractionHandle


# The parsed body of a request (read once: the validation and the handler share it).
_BODY = web.RequestKey("fake_body", tuple)
_MENTION = re.compile(r"<@!?([0-9]+)>")
# A base URL from FakeDiscord.api_base_for(label): /client/<label>/api/v10/…
_CLIENT_PREFIX = re.compile(r"^/client/(?P<label>[A-Za-z0-9_.-]+)(?=/api/)")


NONCE_MAX = 25  # characters (Discord's limit of a message nonce)
NONCE_WINDOW = 300.0  # seconds Discord remembers an enforced nonce ("a few minutes")


class RestMixin:
    """The REST side of :class:`FakeDiscord` (interaction routes excepted)."""

    # ------------------------------------------------------------------ REST plumbing

    def _build_routes(self) -> None:
        r = self._route
        r("GET", r"/users/@me", "users_me", self._h_users_me)
        r("GET", r"/users/(?P<uid>\d+)", "user_get", self._h_user_get)
        r("GET", r"/oauth2/applications/@me", "application_info", self._h_app_info)
        r("GET", r"/applications/@me", "application_info", self._h_app_info)
        r("GET", r"/gateway", "gateway", self._h_gateway)
        r("GET", r"/gateway/bot", "gateway_bot", self._h_gateway_bot)
        cmds = r"/applications/(?P<app>\d+)/commands"
        gcmds = r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands"
        r("PUT", cmds, "commands_put", self._h_commands_put)
        r("PUT", gcmds, "commands_put", self._h_commands_put)
        r("GET", cmds, "commands_get", self._h_commands_get)
        r("GET", gcmds, "commands_get", self._h_commands_get)
        r("GET", r"/channels/(?P<cid>\d+)", "channel_get", self._h_channel_get)
        msgs = r"/channels/(?P<cid>\d+)/messages"
        r("POST", msgs, "channel_message_create", self._h_msg_create)
        r("GET", msgs, "channel_messages_list", self._h_msg_list)
        r("GET", msgs + r"/(?P<mid>\d+)", "channel_message_get", self._h_msg_get)
        r("PATCH", msgs + r"/(?P<mid>\d+)", "channel_message_edit", self._h_msg_edit)
        r("DELETE", msgs + r"/(?P<mid>\d+)", "channel_message_delete", self._h_msg_delete)
        r("POST", r"/channels/(?P<cid>\d+)/typing", "typing", self._h_no_content)
        r("POST", r"/users/@me/channels", "dm_create", self._h_dm_create)
        r("GET", r"/guilds/(?P<gid>\d+)", "guild_get", self._h_guild_get)
        r("GET", r"/guilds/(?P<gid>\d+)/channels", "guild_channels", self._h_guild_channels)
        r("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", "member_get", self._h_member_get)
        r("GET", r"/guilds/(?P<gid>\d+)/roles", "guild_roles", self._h_guild_roles)
        r(
            "POST",
            r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
            "interaction_callback",
            self._h_callback,
        )
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        r("POST", hook, "webhook_execute", self._h_followup)
        msg = hook + r"/messages/(?P<mid>@original|\d+)"
        r("GET", msg, "webhook_message_get", self._h_hook_get)
        r("PATCH", msg, "webhook_message_edit", self._h_hook_edit)
        r("DELETE", msg, "webhook_message_delete", self._h_hook_delete)
        emojis = r"/applications/(?P<app>\d+)/emojis"
        r("GET", emojis, "application_emojis_list", self._h_emojis_list)
        r("POST", emojis, "application_emoji_create", self._h_emoji_create)
        r("GET", emojis + r"/(?P<eid>\d+)", "application_emoji_get", self._h_emoji_get)
        r("DELETE", emojis + r"/(?P<eid>\d+)", "application_emoji_delete", self._h_emoji_delete)

    def _route(self, method: str, pattern: str, key: str, handler: _Handler) -> None:
        self._routes.append((method, re.compile(f"^/api/v{API_VERSION}{pattern}$"), key, handler))

    async def _dispatch_rest(self, request: web.Request) -> web.StreamResponse:
        # When the request reached the fake, before the fake's own work on it (checking the
        # body against Discord's description takes milliseconds): an interaction's answer
        # arrived then, whatever Discord does with it afterwards.
        request[ARRIVED] = time.perf_counter()
        path = request.path
        client: str | None = None
        labelled = _CLIENT_PREFIX.match(path)
        if labelled is not None:  # a base URL from api_base_for(label): remember who called
            client, path = labelled.group("label"), path[labelled.end():]
        if self.validation and path.startswith(f"/api/v{API_VERSION}/"):
            try:
                await self._check_request(request, path.removeprefix(f"/api/v{API_VERSION}"))
            except _HTTPError as exc:
                self.status_counts[exc.status] += 1
                self.errors.append(f"{request.method} {path} -> {exc.status} {exc.code} "
                                   f"{exc.message}")
                body: dict[str, Any] = {"message": exc.message, "code": exc.code}
                if exc.errors is not None:
                    body["errors"] = exc.errors
                return _json(body, status=exc.status)
        for method, pattern, key, handler in self._routes:
            if method != request.method:
                continue
            m = pattern.match(path)
            if m is None:
                continue
            self.route_counts[key] += 1
            self.user_agents[(key, request.headers.get("User-Agent", ""))] += 1
            params = m.groupdict()
            if client is not None:
                self.client_requests.append(
                    ClientRequest(client, request.method, key, self._request_guild(params)))
            refused = self._blocked_response() or self._rate_limited(key, params)
            if refused is None:
                refused = self._fault_for(key)
            if refused is not None:
                self.status_counts[refused.status] += 1
                self._count_invalid(refused.status)
                refused.headers["Date"] = self._http_date()
                return refused
            try:
                self._check_channel_permissions(key, params)
                resp = await handler(request, params)
                lost = self._lost_answer(key)  # type: ignore[attr-defined]
                if lost is not None:  # done, but the answer never arrives
                    resp = lost
            except _HTTPError as exc:
                self.status_counts[exc.status] += 1
                self._count_invalid(exc.status)
                self.errors.append(
                    f"{request.method} {path} -> {exc.status} {exc.code} {exc.message}"
                )
                log.warning(
                    "fake discord: %s %s -> %s %s", request.method, path, exc.status, exc.message
                )
                answer: dict[str, Any] = {"message": exc.message, "code": exc.code}
                if exc.errors is not None:
                    answer["errors"] = exc.errors
                failed = _json(answer, status=exc.status)
                failed.headers.update(self._bucket_headers(key, params))
                failed.headers["Date"] = self._http_date()
                return failed
            self.status_counts[resp.status] += 1
            self._count_invalid(resp.status)
            resp.headers.update(self._bucket_headers(key, params))
            resp.headers["Date"] = self._http_date()
            return resp
        self.route_counts["unknown"] += 1
        self.status_counts[404] += 1
        desc = f"{request.method} {path}"
        self.unknown_routes.append(desc)
        log.warning("fake discord: unknown route %s", desc)
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def _http_date(self) -> str:
        """Discord's ``Date`` header, by the fake's clock (moved by `FakeDiscord.advance`, as
        the time in new ids is): a bot may read Discord's time from it."""
        return email.utils.formatdate(time.time() + self._clock_offset, usegmt=True)

    def _request_guild(self, params: Mapping[str, str]) -> int | None:
        """The guild a request is about (its channel's, its interaction's), if any."""
        if "gid" in params:
            return int(params["gid"])
        if "cid" in params:
            for g in self.guilds.values():
                if int(params["cid"]) in g.channels:
                    return g.id
            return None
        handle = None
        if "iid" in params:
            handle = self.interactions.get(int(params["iid"]))
        elif "token" in params:
            handle = self._by_token.get(params["token"])
        return handle.guild_id if handle is not None else None

    def _check_auth(self, request: web.Request) -> None:
        if self.allowed_tokens is None:
            return
        auth = request.headers.get("Authorization", "")
        token = auth[4:] if auth.startswith("Bot ") else auth
        if token not in self.allowed_tokens:
            raise _HTTPError(401, UNAUTHORIZED, "401: Unauthorized")

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """JSON body (or multipart payload_json) and the files it carried as attachments
        (read once per request: the validation and the handler share it)."""
        cached: tuple[dict[str, Any], list[dict[str, Any]]] | None = request.get(_BODY)
        if cached is not None:
            return cached
        ctype = request.headers.get("Content-Type", "")
        files: list[dict[str, Any]] = []
        if ctype.startswith("multipart/"):
            result = await self._multipart(request)
        else:
            raw = await request.read()
            data: Any = {}
            if raw:
                try:
                    data = json.loads(raw)
                except ValueError:
                    raise _HTTPError(400, 50109,
                                     "The request body contains invalid JSON.") from None
            result = (data if isinstance(data, dict) else {"_": data}), files
        request[_BODY] = result
        return result

    async def _check_request(self, request: web.Request, path: str) -> None:
        """Refuse what Discord refuses: a route its description does not know, a body its
        description or its documented limits do not allow (400, 50035, the `errors` tree)."""
        spec = validate.load_spec()
        op = spec.operation(request.method, path) if spec is not None else None
        if spec is not None and op is None:
            problem = validate.Problem((), "UNKNOWN_ROUTE",
                                       "Discord's API description has no such route", path)
            self._record_refusal(request.method, path, [problem])
            raise _HTTPError(404, 0, "404: Not Found")
        if request.method not in ("POST", "PUT", "PATCH"):
            return
        body, files = await self._body(request)
        ctype = request.headers.get("Content-Type", "").split(";")[0].strip()
        payload: Any = body.get("_", body) if set(body) == {"_"} else body
        problems: list[validate.Problem] = []
        if spec is not None and op is not None and (payload or ctype):
            content = "multipart/form-data" if ctype.startswith("multipart/") else (
                "application/json")
            problems = spec.check(op, content, payload)
        if not problems:
            problems = validate.documented_limits(
                request.method, path, payload, uploads=[f["filename"] for f in files])
        if problems:
            self.refuse(request.method, path, problems)

    def refuse(self, method: str, path: str, problems: list[validate.Problem]) -> None:
        """Record a refusal (the harness fails the test) and raise Discord's 400 50035."""
        self._record_refusal(method, path, problems)
        raise _HTTPError(400, validate.INVALID_FORM_BODY, "Invalid Form Body",
                         validate.errors_tree(problems))

    def _record_refusal(self, method: str, path: str, problems: list[validate.Problem]) -> None:
        refusal = validate.Refusal(method, path, tuple(problems))
        self.refusals.append(refusal)
        validate.REFUSALS.append(refusal)
        log.warning("fake discord: %s", refusal.describe())

    def take_refusals(self) -> list[validate.Refusal]:
        """This fake's refusals so far, which the harness then no longer counts as failures
        (for tests that send bad bodies on purpose)."""
        taken, self.refusals = self.refusals, []
        validate.REFUSALS[:] = [r for r in validate.REFUSALS
                                if not any(r is t for t in taken)]
        return taken

    # ------------------------------------------------------------------ REST: login / app / gateway

    async def _h_users_me(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self.bot_user.payload() | {"verified": True, "mfa_enabled": False})

    async def _h_user_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        u = self.users.get(int(p["uid"]))
        if u is None:
            raise _HTTPError(404, 10013, "Unknown User")
        return _json(u.payload())

    async def _h_app_info(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        owner = self.users[self.guild.owner_id]
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "fake application",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": owner.payload(),
                "team": None,
                "flags": 0,
                "rpc_origins": [],
                "bot": self.bot_user.payload(),
                "approximate_guild_count": len(self.guilds),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "tags": [],
                "integration_types_config": {"0": {}},
            }
        )

    async def _h_gateway(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    # ------------------------------------------------------------------ REST: commands

    def _command_key(self, p: dict[str, str]) -> int | None:
        if int(p["app"]) != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")
        gid = p.get("gid")
        if gid is None:
            return None
        if int(gid) not in self.guilds:
            raise _HTTPError(403, 50001, "Missing Access")
        return int(gid)

    async def _h_commands_put(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        key = self._command_key(p)
        body, _ = await self._body(request)
        defs = body.get("_", body)
        if not isinstance(defs, list):
            raise _HTTPError(400, 50035, "Invalid Form Body")
        previous = {(c["name"], c.get("type", 1)): c for c in self.commands.get(key, [])}
        result = []
        for d in defs:
            old = previous.get((d["name"], d.get("type", 1)))
            cmd: dict[str, Any] = {
                "id": old["id"] if old else str(self._snowflake()),
                "application_id": str(self.application_id),
                "version": str(self._snowflake()),
                "type": d.get("type", 1),
                "name": d["name"],
                "description": d.get("description", ""),
                "options": d.get("options", []),
                "default_member_permissions": d.get("default_member_permissions"),
                "dm_permission": d.get("dm_permission", True),
                "nsfw": d.get("nsfw", False),
                "contexts": d.get("contexts"),
                "integration_types": d.get("integration_types", [0]),
                "name_localizations": d.get("name_localizations"),
                "description_localizations": d.get("description_localizations"),
            }
            if key is not None:
                cmd["guild_id"] = str(key)
            result.append(cmd)
        self.commands[key] = result
        self.command_syncs.append((key, result))
        self.commands_synced.set()
        log.info("fake discord: %d commands synced to %s", len(result), key or "global")
        return _json(result)

    async def _h_commands_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self.commands.get(self._command_key(p), []))

    # ------------------------------------------------------------------ REST: guilds / channels

    def _channel_or_404(self, cid: str) -> FakeChannel:
        try:
            return self.channel(int(cid))
        except LookupError:
            raise _HTTPError(404, UNKNOWN_CHANNEL, "Unknown Channel") from None

    async def _h_channel_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self._channel_or_404(p["cid"]).payload())

    async def _h_guild_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        data = self.guild_payload(g)
        for k in ("members", "channels", "voice_states", "presences", "threads"):
            data.pop(k, None)
        return _json(data)

    async def _h_guild_channels(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return _json([c.payload() for c in g.channels.values() if not c.is_thread])

    async def _h_guild_roles(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return _json([r.payload() for r in g.roles.values()])

    async def _h_member_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        uid = int(p["uid"])
        if g is None or uid not in g.members:
            raise _HTTPError(404, 10007, "Unknown Member")
        return _json(g.member_payload(self.users[uid]))

    async def _h_no_content(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return web.Response(status=204)

    # ------------------------------------------------------------------ messages (shared)

    def _new_message(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        files: list[dict[str, Any]],
        *,
        mtype: int = 0,
        ephemeral_user: int | None = None,
        interaction: InteractionHandle | None = None,
        loading: bool = False,
    ) -> StoredMessage:
        mid = self._snowflake()
        flags = int(body.get("flags") or 0)
        if ephemeral_user is None:
            flags &= ~FLAG_EPHEMERAL
        else:
            flags |= FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        components = json.loads(_dumps(body.get("components") or []))
        _number_components(components)
        data: dict[str, Any] = {
            "id": str(mid),
            "type": mtype,
            "channel_id": str(channel.id),
            "guild_id": str(channel.guild_id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": files,
            "embeds": [_embed(e) for e in body.get("embeds") or []],
            "reactions": [],
            "pinned": False,
            "flags": flags,
            "components": components,
        }
        if body.get("poll"):
            data["poll"] = body["poll"]
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)},
            }
            if interaction.kind == "slash":
                meta["name"] = interaction.name
                meta["command_type"] = 1
            elif interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            data["interaction_metadata"] = meta
            data["interaction"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "name": interaction.name if interaction.kind == "slash" else "",
                "user": interaction.user.payload(),
            }
        else:
            ref = body.get("message_reference")
            if ref:
                data["message_reference"] = ref
                data["type"] = 19
            if body.get("nonce") is not None:
                data["nonce"] = body["nonce"]
        self._link_attachments(data)
        stored = StoredMessage(
            data=data,
            ephemeral_user_id=ephemeral_user,
            interaction_id=interaction.id if interaction is not None else None,
        )
        self._count_uploads(stored, files, [])
        self.messages[mid] = stored
        if ephemeral_user is None and not loading:
            self._deliver_mentions(stored, body)
        self._notify(stored)
        if ephemeral_user is None:
            event = dict(validate.as_returned(data))
            event["member"] = self.guilds[channel.guild_id].member_payload(
                self.bot_user, with_user=False
            )
            self.dispatch("MESSAGE_CREATE", event, intent=INTENT_GUILD_MESSAGES)
        return stored

    def _edit_message(
        self, stored: StoredMessage, body: Mapping[str, Any], files: list[dict[str, Any]]
    ) -> StoredMessage:
        data = stored.data
        self._check_attachment_ids(stored, body)
        if self.validation:
            self._check_edit(stored, body, files)
        if "content" in body:
            data["content"] = body["content"] or ""
        if "embeds" in body:
            data["embeds"] = [_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            components = json.loads(_dumps(body["components"] or []))
            _number_components(components)
            data["components"] = components
        shown = list(data.get("attachments") or [])
        if "attachments" in body:
            kept_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in shown if str(a["id"]) in kept_ids]
            data["attachments"] = kept + files
        elif files:  # no `attachments` field: every file is kept and the new ones added
            data["attachments"] = shown + files
        self._count_uploads(stored, files, shown)
        if body.get("poll"):
            data["poll"] = body["poll"]
        if "embeds" in body or "components" in body or "attachments" in body or files:
            self._link_attachments(data)
        keep = FLAG_EPHEMERAL if stored.ephemeral else 0
        if "flags" in body and body["flags"] is not None:
            data["flags"] = (int(body["flags"]) & ~(FLAG_EPHEMERAL | FLAG_LOADING)) | keep
        else:
            data["flags"] = (int(data.get("flags") or 0) & ~FLAG_LOADING) | keep
        if "content" in body and not stored.ephemeral and stored.data.get("mentions"):
            self._mention_ids(stored, body)  # mentions kept (or dropped) by the edit: no ping
        data["edited_timestamp"] = _iso()
        stored.edit_count += 1
        stored.updated_at = time.perf_counter()
        self._notify(stored)
        if not stored.ephemeral:
            event = dict(validate.as_returned(data))
            self.dispatch("MESSAGE_UPDATE", event, intent=INTENT_GUILD_MESSAGES)
        return stored

    def _count_uploads(self, stored: StoredMessage, files: list[dict[str, Any]],
                       shown: list[dict[str, Any]]) -> None:
        """Count the files uploaded to ``stored``; ``shown``: its attachments before the edit
        (an upload of the same bytes as one of them re-sends what the message showed)."""
        before = {self._digest(int(a["id"])) for a in shown}
        for entry in files:
            digest = self._digest(int(entry["id"]))
            stored.uploads += 1
            self.uploads_total += 1
            if digest in before:
                stored.reuploads += 1
                self.reuploads_total += 1
            if digest not in stored.upload_digests:
                stored.upload_digests.add(digest)
                self.distinct_uploads_total += 1

    def _digest(self, attachment_id: int) -> str:
        return hashlib.blake2b(self.attachment_bytes.get(attachment_id, b""),
                               digest_size=16).hexdigest()

    def _check_attachment_ids(self, stored: StoredMessage, body: Mapping[str, Any]) -> None:
        """An edit's ``attachments`` may list the message's own attachments (kept, by id) and
        this request's uploads (by index); any other id is refused, as Discord does."""
        own = {str(a["id"]) for a in stored.data.get("attachments") or []}
        problems = []
        for i, entry in enumerate(body.get("attachments") or []):
            aid = str(entry.get("id")) if isinstance(entry, Mapping) else ""
            if aid in own or (aid.isdigit() and len(aid) < 5):
                continue  # kept, or an upload of this request (validate checks the index)
            problems.append(validate.Problem(
                ("attachments", i, "id"), "ATTACHMENT_NOT_FOUND",
                "The message has no attachment with that id.", aid))
        if problems:
            self.refuse("PATCH", f"message {stored.id}", problems)

    def _check_edit(self, stored: StoredMessage, body: Mapping[str, Any],
                    files: list[dict[str, Any]]) -> None:
        """What Discord refuses in an edit given the message it edits: removing the
        IS_COMPONENTS_V2 flag, legacy fields on a V2 message, references to files it lacks."""
        problems: list[validate.Problem] = []
        v2 = bool(int(stored.data.get("flags") or 0) & validate.FLAG_COMPONENTS_V2)
        new_flags = body.get("flags")
        if v2 and new_flags is not None and not int(new_flags) & validate.FLAG_COMPONENTS_V2:
            problems.append(validate.Problem(
                ("flags",), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message.", new_flags))
        if v2 and not (new_flags is not None and int(new_flags) & validate.FLAG_COMPONENTS_V2):
            for key in ("content", "embeds", "poll"):
                if body.get(key):
                    problems.append(validate.Problem(
                        (key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        "A message with the IS_COMPONENTS_V2 flag has no content, embeds or "
                        "poll.", body[key]))
        if "attachments" in body:
            kept_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a["filename"] for a in stored.data.get("attachments", [])
                    if str(a["id"]) in kept_ids]
        else:
            kept = [a["filename"] for a in stored.data.get("attachments", [])]
        names = kept + [f["filename"] for f in files]
        embeds = body["embeds"] if "embeds" in body else stored.data.get("embeds")
        problems += validate.embed_references(embeds, ("embeds",), names)
        if "components" in body:
            problems += validate.component_references(body["components"], ("components",),
                                                      names)
        if problems:
            self.refuse("PATCH", f"message {stored.id}", problems)

    def _deliver_mentions(self, stored: StoredMessage, body: Mapping[str, Any]) -> None:
        """Discord notifies a mentioned user only for a NEW message (never for an edit), and only
        as its ``allowed_mentions`` permit (absent: every user mention in the content)."""
        ids = self._mention_ids(stored, body)
        for user_id in ids:
            self.notifications[user_id].append(stored.id)

    def _mention_ids(self, stored: StoredMessage, body: Mapping[str, Any]) -> list[int]:
        """The users a message's content mentions as its ``allowed_mentions`` permit (set as
        its ``mentions``; an edit recomputes them, and notifies nobody)."""
        ids = [int(m) for m in _MENTION.findall(stored.data.get("content") or "")]
        allowed = body.get("allowed_mentions")
        if allowed is not None:
            parse = allowed.get("parse") or []
            users = {int(u) for u in allowed.get("users") or []}
            ids = [u for u in ids if "users" in parse or u in users]
        ids = [u for u in dict.fromkeys(ids) if u in self.users]
        stored.data["mentions"] = [self.users[u].payload() for u in ids]
        return ids

    def notified(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """The messages whose creation notified ``user`` (deleted ones included)."""
        return [self.messages[m] for m in self.notifications.get(self.user(user).id, [])
                if m in self.messages]

    def _notify(self, stored: StoredMessage) -> None:
        for listener in self.message_listeners:
            try:
                listener(stored)
            except Exception:
                log.exception("fake discord: message listener failed")
                self.errors.append("message listener failed")

    def forget_message(self, message_id: int) -> None:
        """Drop a stored message (a harness dismissing old ephemerals keeps memory bounded)."""
        self.messages.pop(int(message_id), None)

    def _delete_message(self, stored: StoredMessage) -> None:
        stored.deleted = True
        if stored.data.get("mentions") or any(  # a notification now opens onto nothing
                stored.id in ids for ids in self.notifications.values()):
            self.mention_deletions.append(stored.id)
        if not stored.ephemeral:
            self.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(stored.id),
                    "channel_id": str(stored.channel_id),
                    "guild_id": stored.data.get("guild_id"),
                },
                intent=INTENT_GUILD_MESSAGES,
            )

    # ------------------------------------------------------------------ REST: channel messages

    def _channel_message(self, p: dict[str, str]) -> StoredMessage:
        ch = self._channel_or_404(p["cid"])
        stored = self.messages.get(int(p["mid"]))
        if stored is None or stored.deleted or stored.ephemeral or stored.channel_id != ch.id:
            raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return stored

    async def _h_dm_create(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        body, _ = await self._body(request)
        uid = int(body.get("recipient_id") or 0)
        if uid not in self.users:
            raise _HTTPError(400, 50035, "Invalid Form Body")
        cid = self.dm_channels.get(uid)
        if cid is None:
            cid = self.dm_channels[uid] = self._snowflake()
        return _json({"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                      "recipients": [self.users[uid].payload()]})

    def _direct_message(self, cid: int, body: Mapping[str, Any]) -> web.Response:
        uid = next(u for u, c in self.dm_channels.items() if c == cid)
        self.direct_messages.append((uid, str(body.get("content") or "")))
        return _json({
            "id": str(self._snowflake()), "type": 0, "channel_id": str(cid),
            "author": self.bot_user.payload(), "content": body.get("content") or "",
            "timestamp": _iso(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [_embed(e) for e in body.get("embeds") or []],
            "pinned": False, "flags": 0, "components": [],
        })

    async def _h_msg_create(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        if int(p["cid"]) in self.dm_channels.values():
            body, _ = await self._body(request)
            return self._direct_message(int(p["cid"]), body)
        ch = self._channel_or_404(p["cid"])
        body, files = await self._body(request)
        if not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or files
            or body.get("poll")
            or body.get("sticker_ids")
        ):
            raise _HTTPError(400, 50006, "Cannot send an empty message")
        self._thread_before_post(ch)  # type: ignore[attr-defined]
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > NONCE_MAX:
            raise _HTTPError(400, 50035, "Invalid Form Body")
        key = (ch.id, str(nonce))
        if body.get("enforce_nonce") and nonce is not None:
            # Discord: with enforce_nonce, a message from the same author with the same nonce
            # sent within the last few minutes is returned instead of a second one.
            seen = self._nonces.get(key)
            if seen is not None and self._now() - seen[1] < NONCE_WINDOW:
                earlier = self.messages.get(seen[0])
                if earlier is not None and not earlier.deleted:
                    return _json(validate.as_returned(earlier.data))
        stored = self._new_message(ch, body, files)
        if body.get("enforce_nonce") and nonce is not None:
            self._nonces[key] = (stored.id, self._now())
        return _json(validate.as_returned(stored.data))

    async def _h_msg_list(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        ch = self._channel_or_404(p["cid"])
        limit = int(request.query.get("limit", "50"))
        msgs = [validate.as_returned(m.data) for m in self.channel_messages(ch)]
        return _json(list(reversed(msgs))[:limit])

    async def _h_msg_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(validate.as_returned(self._channel_message(p).data))

    async def _h_msg_edit(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        stored = self._channel_message(p)
        self._thread_before_edit(stored.channel_id)  # type: ignore[attr-defined]
        self._check_old_edit(stored.created_at, stored.channel_id)
        body, files = await self._body(request)
        return _json(validate.as_returned(self._edit_message(stored, body, files).data))

    async def _h_msg_delete(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._delete_message(self._channel_message(p))
        return web.Response(status=204)
