"""Request bodies checked as Discord checks them: against Discord's OpenAPI description, plus the
documented limits the description does not encode.

* The description is ``../shared/discord-api-spec/openapi.json`` beside the repository
  (``specs/openapi.json`` of github.com/discord/discord-api-spec, MIT), or the file named by
  ``DISCORD_API_SPEC``. It is read at run time, never copied here. Where it is absent the schema
  part and the unknown-route check are skipped (one warning line says so); the limits still apply.
* Each operation's request schema is compiled once (``jsonschema``, Draft 2020-12, the spec's
  ``$ref``s resolved through a ``referencing`` registry) and cached for the process.
* :func:`documented_limits` holds what Discord's developer documentation says and the schema
  leaves out: component counts and nesting, Components V2, custom ids, embed totals, command names
  and descriptions (localisations included), choices, autocomplete answers, allowed mentions.
* A refused body is answered as Discord answers it: 400, code 50035, and the ``errors`` tree
  naming the field (:func:`errors_tree`). Every refusal is also recorded in :data:`REFUSALS`,
  which the test harness (``tests/conftest.py``) turns into a failure of the test that caused it.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, relevance
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

log = logging.getLogger("fake_discord.validate")

SPEC_ENV = "DISCORD_API_SPEC"
SPEC_PATH = Path(__file__).resolve().parents[3].parent / "shared" / "discord-api-spec" / (
    "openapi.json")
SPEC_ORIGIN = "specs/openapi.json of github.com/discord/discord-api-spec"
_SPEC_URI = "urn:discord-api-spec"

INVALID_FORM_BODY = 50035
FLAG_COMPONENTS_V2 = 1 << 15
FLAG_EPHEMERAL = 1 << 6
V2_MAX_COMPONENTS = 40
V2_MAX_TEXT = 4000
CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000

Field = tuple[str | int, ...]


@dataclasses.dataclass(frozen=True)
class Problem:
    """One thing Discord refuses in a body: where (``field``), a Discord-style code and why."""

    field: Field
    code: str
    message: str
    value: Any = None

    def dotted(self) -> str:
        return ".".join(str(p) for p in self.field) or "(body)"


@dataclasses.dataclass(frozen=True)
class Refusal:
    """A request the fake refused because Discord would: its route and the problems."""

    method: str
    path: str
    problems: tuple[Problem, ...]

    def describe(self) -> str:
        lines = [f"{self.method} {self.path} refused:"]
        for p in self.problems:
            lines.append(f"  {p.dotted()}: {p.message} (value: {clip(p.value)})")
        return "\n".join(lines)


#: Every refusal of every fake in this process since the harness last cleared it.
REFUSALS: list[Refusal] = []


def clip(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def errors_tree(problems: Sequence[Problem]) -> dict[str, Any]:
    """Discord's ``errors`` object: the field path as nested keys, ``_errors`` at the leaf."""
    tree: dict[str, Any] = {}
    for p in problems:
        node = tree
        for part in p.field:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return tree


def refusal_body(problems: Sequence[Problem]) -> dict[str, Any]:
    return {"message": "Invalid Form Body", "code": INVALID_FORM_BODY,
            "errors": errors_tree(problems)}


# ---------------------------------------------------------------------------- the description


@dataclasses.dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    operation_id: str
    schemas: Mapping[str, Any]  # content type -> schema (the spec's inline part)


class ApiSpec:
    """Discord's OpenAPI description: its operations, and one cached validator per operation."""

    def __init__(self, document: Mapping[str, Any], source: Path) -> None:
        self.source = source
        document = _as_discord_reads(document)
        resource: Resource[Any] = Resource.from_contents(
            document, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(_SPEC_URI, resource)
        self.operations: list[Operation] = []
        for template, item in document.get("paths", {}).items():
            regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            for method, op in item.items():
                if method in ("parameters", "summary", "description", "servers"):
                    continue
                content = (op.get("requestBody") or {}).get("content") or {}
                schemas = {ctype: c["schema"] for ctype, c in content.items() if "schema" in c}
                self.operations.append(Operation(
                    method.upper(), template, re.compile(regex), op.get("operationId", ""),
                    schemas))
        # Literal segments first: /users/@me before /users/{user_id}.
        self.operations.sort(key=lambda o: (o.template.count("{"), -len(o.template)))
        self._validators: dict[tuple[str, str], Any] = {}

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation that serves ``method path`` (a path below ``/api/v10``), or None."""
        for op in self.operations:
            if op.method == method and op.pattern.match(path):
                return op
        return None

    def validator(self, op: Operation, content_type: str) -> Any:
        key = (op.method + " " + op.template, content_type)
        if key in self._validators:
            return self._validators[key]
        schema = op.schemas.get(content_type)
        if schema is None and content_type == "multipart/form-data":
            schema = op.schemas.get("application/json")  # payload_json carries the JSON body
        validator = None
        if schema is not None:
            validator = _CachingValidator(_absolute_refs(schema), registry=self._registry)
        self._validators[key] = validator
        return validator

    def check(self, op: Operation, content_type: str, body: Any) -> list[Problem]:
        validator = self.validator(op, content_type)
        if validator is None:
            return []
        if content_type == "multipart/form-data" and isinstance(body, dict):
            # The multipart schema also lists the files[n] parts; the JSON part is checked alone.
            validator = self.validator(op, "application/json") or validator
        errors = list(validator.iter_errors(body))
        if not errors:
            return []
        # Not best_match: it descends into unions by its own rule, often into the wrong branch.
        return [_problem(min(errors, key=relevance))]


_VALID: dict[tuple[str, bytes], None] = {}  # (a $ref, a value) found valid: not checked again


def _cached_ref(validator: Any, ref: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``$ref`` that remembers which values it found valid. A board edit sends the same buttons
    and rows move after move; jsonschema took ~15 ms to check one such body, and the suite's
    wire tests send thousands. Only valid results are kept (errors are rare, and their paths are
    filled in by the callers), so a refusal is reported exactly as without the cache."""
    try:
        key = (ref, orjson.dumps(instance, option=orjson.OPT_SORT_KEYS))
    except TypeError:
        yield from _REF(validator, ref, instance, schema)
        return
    if key in _VALID:
        return
    failed = False
    for error in _REF(validator, ref, instance, schema):
        failed = True
        yield error
    if not failed:
        if len(_VALID) > 200_000:
            _VALID.clear()
        _VALID[key] = None


_REF = Draft202012Validator.VALIDATORS["$ref"]
_ONE_OF = Draft202012Validator.VALIDATORS["oneOf"]
_KINDS: dict[int, tuple[Sequence[Any], list[frozenset[Any] | None]]] = {}


def _kinds(validator: Any, one_of: Sequence[Any]) -> list[frozenset[Any] | None]:
    """For each branch of ``one_of``: the values its ``type`` property allows (a component's
    kind, e.g. {2} for a button), or None when the branch does not pin them down."""
    known = _KINDS.get(id(one_of))
    if known is not None and known[0] is one_of:
        return known[1]
    kinds: list[frozenset[Any] | None] = []
    for branch in one_of:
        target = branch
        if isinstance(branch, dict) and set(branch) == {"$ref"}:
            try:
                target = validator._resolver.lookup(branch["$ref"]).contents
            except Exception:
                target = None
        kind = None
        if isinstance(target, dict) and "type" in (target.get("required") or ()):
            prop = (target.get("properties") or {}).get("type")
            if isinstance(prop, dict) and isinstance(prop.get("enum"), list):
                kind = frozenset(prop["enum"])
        kinds.append(kind)
    _KINDS[id(one_of)] = (one_of, kinds)
    return kinds


def _one_of_by_kind(validator: Any, one_of: Any, instance: Any,
                    schema: Any) -> Iterator[ValidationError]:
    """``oneOf`` that skips the branches whose required ``type`` cannot be the body's (a button
    is not checked against the ten other kinds of component): those branches fail on their
    ``type`` alone, so the outcome is the same, and a refused body names the same field. The
    components of a board or a hand took most of the fake's time (~15 ms a body) without it."""
    kind = instance.get("type") if isinstance(instance, dict) else None
    if isinstance(kind, bool) or not isinstance(kind, int) or not isinstance(one_of, list):
        yield from _ONE_OF(validator, one_of, instance, schema)
        return
    kinds = _kinds(validator, one_of)
    if any(k is None for k in kinds):
        yield from _ONE_OF(validator, one_of, instance, schema)
        return
    chosen = [branch for branch, k in zip(one_of, kinds, strict=True) if kind in k]
    yield from _ONE_OF(validator, chosen or one_of, instance, schema)


_CachingValidator = validators.extend(Draft202012Validator, {"$ref": _cached_ref,
                                                             "oneOf": _one_of_by_kind})


def _as_discord_reads(document: Mapping[str, Any]) -> dict[str, Any]:
    """The description with the one place where Discord accepts more than it says: a snowflake
    may be sent as a JSON integer as well as a string (discord.py sends ids in allowed mentions,
    message references and command permissions as integers, and Discord reads both)."""
    doc = dict(document)
    components = dict(doc.get("components") or {})
    schemas = dict(components.get("schemas") or {})
    snowflake = schemas.get("SnowflakeType")
    if snowflake is not None:
        schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    components["schemas"] = schemas
    doc["components"] = components
    return doc


def _absolute_refs(schema: Any) -> Any:
    """The operation's inline schema with its ``#/…`` references pointing into the spec."""
    if isinstance(schema, dict):
        return {k: (_SPEC_URI + v if k == "$ref" and isinstance(v, str) and v.startswith("#")
                    else _absolute_refs(v)) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_absolute_refs(v) for v in schema]
    return schema


def _wrong_kind(e: ValidationError) -> bool:
    return e.validator == "type" or (e.validator in ("const", "enum") and bool(e.relative_path)
                                     and e.relative_path[-1] == "type")


def _pick(error: ValidationError) -> tuple[int, int, ValidationError]:
    """(wrong-kind errors, depth, leaf) of the branch of ``error``'s union the body meant."""
    if not error.context:
        return int(_wrong_kind(error)), len(error.absolute_path), error
    branches: dict[Any, list[ValidationError]] = {}
    for e in error.context:
        key = e.relative_schema_path[0] if e.relative_schema_path else None
        branches.setdefault(key, []).append(e)
    best: tuple[int, int, ValidationError] | None = None
    best_score: tuple[int, int, int] | None = None
    for errs in branches.values():
        picks = [_pick(e) for e in errs]
        wrong = sum(p[0] for p in picks)
        deepest = max(picks, key=lambda p: (p[1], -len(p[2].message)))
        score = (-wrong, deepest[1], -len(errs))
        if best_score is None or score > best_score:
            best_score, best = score, (wrong, deepest[1], deepest[2])
    assert best is not None
    return best


def _deepest(error: ValidationError) -> ValidationError:
    """Inside a union (anyOf/oneOf), the error of the branch the body meant: a branch refused
    for its discriminator (a wrong ``type`` value) or for a value's JSON type is the least
    likely one; among the others, the error that went deepest into the body."""
    return _pick(error)[2]


def _problem(error: ValidationError) -> Problem:
    error = _deepest(error)
    codes = {"maxLength": "BASE_TYPE_MAX_LENGTH", "minLength": "BASE_TYPE_MIN_LENGTH",
             "maxItems": "BASE_TYPE_MAX_LENGTH", "minItems": "BASE_TYPE_MIN_LENGTH",
             "required": "BASE_TYPE_REQUIRED", "enum": "BASE_TYPE_CHOICES",
             "type": "BASE_TYPE_INVALID", "pattern": "STRING_TYPE_REGEX",
             "additionalProperties": "UNKNOWN_FIELD"}
    return Problem(tuple(error.absolute_path), codes.get(str(error.validator), "BASE_TYPE_INVALID"),
                   error.message.splitlines()[0][:300], error.instance)


@functools.cache
def load_spec() -> ApiSpec | None:
    """The description (read and indexed once per process), or None where it is absent."""
    path = Path(os.environ.get(SPEC_ENV) or SPEC_PATH)
    if not path.is_file():
        log.warning("fake discord: no Discord API description at %s (%s): request bodies are "
                    "checked against the documented limits only", path, SPEC_ORIGIN)
        return None
    return ApiSpec(orjson.loads(path.read_bytes()), path)


# ---------------------------------------------------------------------------- documented limits

_MESSAGE_ROUTE = re.compile(
    r"^/channels/[^/]+/messages(/[^/]+)?$|^/webhooks/[^/]+/[^/]+(/messages/[^/]+)?$")
_CALLBACK_ROUTE = re.compile(r"^/interactions/[^/]+/[^/]+/callback$")
_COMMANDS_ROUTE = re.compile(r"^/applications/[^/]+(/guilds/[^/]+)?/commands(/[^/]+)?$")
_THREAD_ROUTE = re.compile(r"^/channels/[^/]+(/messages/[^/]+)?/threads$")
# Discord's command-name rule (CHAT_INPUT), with \w standing for the letter and number classes.
_COMMAND_NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
_ARCHIVE_DURATIONS = frozenset({60, 1440, 4320, 10080})


def documented_limits(method: str, path: str, body: Any, *, uploads: Sequence[str] = (),
                      kept_files: Sequence[str] | None = ()) -> list[Problem]:
    """What Discord refuses in ``body`` beyond its schema. ``uploads``: the file names of the
    request's ``files[n]`` parts; ``kept_files``: the names of an edited message's attachments
    (None: not known here; the edit itself checks its ``attachment://`` references)."""
    if method not in ("POST", "PUT", "PATCH"):
        return []
    if method == "PATCH" and kept_files == ():
        kept_files = None
    if _COMMANDS_ROUTE.match(path):
        if isinstance(body, list):
            return list(_command_list(body))
        if isinstance(body, dict):
            return list(_command(body, ()))
        return []
    if not isinstance(body, dict):
        return []
    if _CALLBACK_ROUTE.match(path):
        return list(_callback(body, uploads))
    if _MESSAGE_ROUTE.match(path):
        return list(_message(body, (), uploads, kept_files))
    if _THREAD_ROUTE.match(path):
        return list(_thread(body))
    return []


def _callback(body: Mapping[str, Any], uploads: Sequence[str]) -> Iterator[Problem]:
    data = body.get("data")
    ctype = body.get("type")
    if not isinstance(data, dict):
        return
    if ctype in (4, 7):
        yield from _message(data, ("data",), uploads, () if ctype == 4 else None)
    elif ctype in (5, 6):
        flags = data.get("flags")
        if isinstance(flags, int) and flags & ~FLAG_EPHEMERAL:
            yield Problem(("data", "flags"), "INTERACTION_DEFERRED_FLAGS",
                          "A deferred response may only set the EPHEMERAL flag (a V2 message "
                          "after a defer goes through an edit of the original).", flags)
    elif ctype == 8:
        choices = data.get("choices")
        if isinstance(choices, list):
            if len(choices) > 25:
                yield Problem(("data", "choices"), "BASE_TYPE_MAX_LENGTH",
                              "Must be 25 or fewer in length.", len(choices))
            for i, choice in enumerate(choices):
                yield from _choice(choice, ("data", "choices", i))
    elif ctype == 9:
        yield from _modal(data)


def _thread(body: Mapping[str, Any]) -> Iterator[Problem]:
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in _ARCHIVE_DURATIONS:
        yield Problem(("auto_archive_duration",), "BASE_TYPE_CHOICES",
                      f"Value must be one of {sorted(_ARCHIVE_DURATIONS)}.", duration)
    name = body.get("name")
    if isinstance(name, str) and not 1 <= len(name) <= 100:
        yield Problem(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.",
                      name)


# ------------------------------------------------------------------ messages


def _message(body: Mapping[str, Any], at: Field, uploads: Sequence[str],
             kept_files: Sequence[str] | None) -> Iterator[Problem]:
    flags = body.get("flags")
    v2 = isinstance(flags, int) and bool(flags & FLAG_COMPONENTS_V2)
    components = body.get("components")
    if v2:
        for key in ("content", "embeds", "poll", "sticker_ids"):
            if body.get(key):
                yield Problem((*at, key), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                              "The 'content', 'embeds', 'stickers' and 'poll' fields cannot be "
                              "used when the IS_COMPONENTS_V2 flag is set.", body.get(key))
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        yield Problem((*at, "content"), "BASE_TYPE_MAX_LENGTH",
                      f"Must be {CONTENT_MAX} or fewer in length.", content)
    embeds = body.get("embeds")
    if isinstance(embeds, list):
        files = None if kept_files is None else [*uploads, *kept_files]
        yield from _embeds(embeds, (*at, "embeds"), files)
    if isinstance(components, list):
        yield from _components(components, (*at, "components"), v2)
        if kept_files is not None:
            yield from component_references(components, (*at, "components"),
                                            [*uploads, *kept_files])
    yield from _allowed_mentions(body.get("allowed_mentions"), (*at, "allowed_mentions"))
    attachments = body.get("attachments")
    if isinstance(attachments, list):
        yield from _attachments(attachments, (*at, "attachments"), uploads)


def media_references(components: Any) -> Iterator[tuple[dict[str, Any], Field]]:
    """Every unfurled media item of a V2 layout (a gallery's items, a thumbnail, a file) with
    where it is, relative to the components."""
    if not isinstance(components, list):
        return
    for c, here in _walk(components, ()):
        ctype = c.get("type")
        if ctype == 12:
            for i, item in enumerate(c.get("items") or []):
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    yield item["media"], (*here, "items", i, "media")
        elif ctype == 11 and isinstance(c.get("media"), dict):
            yield c["media"], (*here, "media")
        elif ctype == 13 and isinstance(c.get("file"), dict):
            yield c["file"], (*here, "file")


def as_returned(data: dict[str, Any]) -> dict[str, Any]:
    """A message as Discord returns it to the bot (REST answers, callback resources, gateway
    events, the message a component interaction carries): attachments that its components or
    embeds show (``attachment://`` references, resolved to the file) are left out of
    ``attachments`` — they are reached through the component's ``attachment_id`` or the embed's
    URL (Discord's documentation of the message object, 2026). The stored message keeps them."""
    used = {str(m.get("attachment_id")) for m, _ in media_references(data.get("components"))
            if m.get("attachment_id")}
    for embed in data.get("embeds") or []:
        for key in ("image", "thumbnail"):
            media = embed.get(key)
            if isinstance(media, dict) and str(media.get("reference") or "").startswith(
                    "attachment://"):
                used.update(str(a["id"]) for a in data.get("attachments") or []
                            if a["filename"] == str(media["reference"]).removeprefix(
                                "attachment://"))
    if not used:
        return data
    out = dict(data)
    out["attachments"] = [a for a in data.get("attachments") or [] if str(a["id"]) not in used]
    return out


def component_references(components: Any, at: Field, files: Sequence[str]
                         ) -> Iterator[Problem]:
    """The ``attachment://`` references of a V2 layout that name none of ``files``: Discord
    refuses them (a picture of a V2 message shows only through such a reference)."""
    for media, here in media_references(components):
        url = media.get("url")
        if (isinstance(url, str) and url.startswith("attachment://")
                and url.removeprefix("attachment://") not in files):
            yield Problem((*at, *here, "url"), "ATTACHMENT_NOT_FOUND",
                          "The message has no attachment of that name.", url)


def embed_references(embeds: Any, at: Field, files: Sequence[str]) -> list[Problem]:
    """The ``attachment://`` references of ``embeds`` that name none of ``files``."""
    if not isinstance(embeds, list):
        return []
    return [p for p in _embeds(embeds, at, files) if p.code == "ATTACHMENT_NOT_FOUND"]


def _embeds(embeds: Sequence[Any], at: Field, files: Sequence[str] | None
            ) -> Iterator[Problem]:
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        texts = [embed.get("title"), embed.get("description"),
                 (embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
        for field in embed.get("fields") or []:
            if isinstance(field, dict):
                texts += [field.get("name"), field.get("value")]
        total += sum(len(t) for t in texts if isinstance(t, str))
        for key in ("image", "thumbnail"):
            media = embed.get(key)
            url = media.get("url") if isinstance(media, dict) else None
            if (files is not None and isinstance(url, str) and url.startswith("attachment://")
                    and url.removeprefix("attachment://") not in files):
                yield Problem((*at, i, key, "url"), "ATTACHMENT_NOT_FOUND",
                              "The message has no attachment of that name.", url)
    if total > EMBED_TOTAL_MAX:
        yield Problem(at, "MESSAGE_EMBED_TOTAL_LENGTH",
                      f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}", total)


def _attachments(attachments: Sequence[Any], at: Field, uploads: Sequence[str]
                 ) -> Iterator[Problem]:
    for i, a in enumerate(attachments):
        if not isinstance(a, dict):
            continue
        aid = str(a.get("id", ""))
        # A small integer names the files[n] part of this request; a snowflake a kept file.
        if aid.isdigit() and len(aid) < 5 and int(aid) >= len(uploads):
            yield Problem((*at, i, "id"), "ATTACHMENT_NOT_FOUND",
                          f"No file was uploaded as files[{aid}].", aid)


def _allowed_mentions(allowed: Any, at: Field) -> Iterator[Problem]:
    if not isinstance(allowed, dict):
        return
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if kind in parse and ids:
            yield Problem((*at, kind), "SET_TYPE_ALREADY_CONTAINS_VALUE",
                          f"parse contains {kind!r} and {kind} is also given: they are mutually "
                          "exclusive.", ids)
        if len(ids) > 100:
            yield Problem((*at, kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.",
                          len(ids))


def _walk(components: Sequence[Any], at: Field) -> Iterator[tuple[dict[str, Any], Field]]:
    for i, c in enumerate(components):
        if not isinstance(c, dict):
            continue
        here = (*at, i)
        yield c, here
        if isinstance(c.get("components"), list):
            yield from _walk(c["components"], (*here, "components"))
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"], (*here, "accessory")
        if isinstance(c.get("component"), dict):  # a modal's label wraps one component
            yield from _walk([c["component"]], (*here, "component"))


_V1_TOP = {1}
_V2_TOP = {1, 9, 10, 12, 13, 14, 17}
_ROW_CHILDREN = {2, 3, 4, 5, 6, 7, 8}
_SELECTS = {3, 5, 6, 7, 8}


def _components(components: Sequence[Any], at: Field, v2: bool) -> Iterator[Problem]:
    top = _V2_TOP if v2 else _V1_TOP
    if not v2 and len(components) > 5:
        yield Problem(at, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.",
                      len(components))
    for i, c in enumerate(components):
        if isinstance(c, dict) and c.get("type") not in top:
            yield Problem((*at, i, "type"), "COMPONENT_LAYOUT_INVALID" if not v2 else
                          "UNION_TYPE_CHOICES",
                          "Top-level components of a message without the IS_COMPONENTS_V2 flag "
                          "are action rows." if not v2 else "Not a top-level component.",
                          c.get("type"))
    total = 0
    text = 0
    seen: dict[str, Field] = {}
    for c, here in _walk(components, at):
        total += 1
        ctype = c.get("type")
        if ctype == 10 and isinstance(c.get("content"), str):
            text += len(c["content"])
        if ctype in (9, 10, 12, 13, 14, 17) and not v2:
            yield Problem((*here, "type"), "COMPONENT_TYPE_REQUIRES_FLAG",
                          "This component type needs the IS_COMPONENTS_V2 flag.", ctype)
        cid = c.get("custom_id")
        if isinstance(cid, str):
            if not 1 <= len(cid) <= 100:
                yield Problem((*here, "custom_id"), "BASE_TYPE_BAD_LENGTH",
                              "Must be between 1 and 100 in length.", cid)
            if cid in seen:
                yield Problem((*here, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                              "Component custom id cannot be duplicated", cid)
            seen.setdefault(cid, here)
        if ctype == 1:
            yield from _row(c, here)
        elif ctype == 2:
            yield from _button(c, here)
        elif ctype in _SELECTS:
            yield from _select(c, here)
        elif ctype == 9:
            kids = c.get("components") or []
            if not 1 <= len(kids) <= 3 or any(k.get("type") != 10 for k in kids
                                              if isinstance(k, dict)):
                yield Problem((*here, "components"), "BASE_TYPE_BAD_LENGTH",
                              "A section holds 1 to 3 text displays.", len(kids))
            if not isinstance(c.get("accessory"), dict) or c["accessory"].get("type") not in (2,
                                                                                          11):
                yield Problem((*here, "accessory"), "BASE_TYPE_REQUIRED",
                              "A section needs a button or thumbnail accessory.",
                              c.get("accessory"))
        elif ctype == 12:
            items = c.get("items") or []
            if not 1 <= len(items) <= 10:
                yield Problem((*here, "items"), "BASE_TYPE_BAD_LENGTH",
                              "Must be between 1 and 10 in length.", len(items))
        elif ctype == 17:
            for j, k in enumerate(c.get("components") or []):
                if isinstance(k, dict) and k.get("type") not in {1, 9, 10, 12, 13, 14}:
                    yield Problem((*here, "components", j, "type"), "UNION_TYPE_CHOICES",
                                  "Not a component a container holds.", k.get("type"))
    if v2 and total > V2_MAX_COMPONENTS:
        yield Problem(at, "BASE_TYPE_MAX_LENGTH",
                      f"A message holds at most {V2_MAX_COMPONENTS} components in all.", total)
    if text > V2_MAX_TEXT:
        yield Problem(at, "BASE_TYPE_MAX_LENGTH",
                      f"The text displays hold at most {V2_MAX_TEXT} characters in all.", text)


def _row(row: Mapping[str, Any], at: Field) -> Iterator[Problem]:
    kids = [k for k in row.get("components") or [] if isinstance(k, dict)]
    types = [k.get("type") for k in kids]
    if not kids:
        yield Problem((*at, "components"), "BASE_TYPE_MIN_LENGTH",
                      "Must be 1 or more in length.", kids)
    if any(t not in _ROW_CHILDREN for t in types):
        yield Problem((*at, "components"), "UNION_TYPE_CHOICES",
                      "An action row holds buttons, one select or one text input.", types)
    elif any(t != 2 for t in types) and len(kids) > 1:
        yield Problem((*at, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                      "A select or text input fills its action row alone.", types)
    elif len(kids) > 5:
        yield Problem((*at, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                      "An action row holds at most 5 buttons.", len(kids))


def _emoji(emoji: Any, at: Field) -> Iterator[Problem]:
    if not isinstance(emoji, dict):
        return
    name = emoji.get("name")
    if emoji.get("id") is None and isinstance(name, str) and not _is_unicode_emoji(name):
        yield Problem((*at, "id"), "BUTTON_COMPONENT_INVALID_EMOJI",
                      "A custom emoji needs its id; a name alone is a Unicode emoji.", name)


def _is_unicode_emoji(name: str) -> bool:
    if not name or len(name) > 16:
        return False
    return any(unicodedata.category(ch) == "So" or ord(ch) >= 0x1F000 or ch in "\u20e3\ufe0f"
               for ch in name) and not name.isascii()


def _button(b: Mapping[str, Any], at: Field) -> Iterator[Problem]:
    style = b.get("style")
    if style == 5:
        if not b.get("url") or b.get("custom_id") is not None:
            yield Problem((*at, "url"), "BUTTON_COMPONENT_URL_REQUIRED",
                          "A link button has a url and no custom id.", b.get("url"))
    elif style == 6:
        if not b.get("sku_id"):
            yield Problem((*at, "sku_id"), "BUTTON_COMPONENT_SKU_ID_REQUIRED",
                          "A premium button needs a sku id.", None)
    elif not b.get("custom_id"):
        yield Problem((*at, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                      "A button of this style needs a custom id.", b.get("custom_id"))
    label = b.get("label")
    if isinstance(label, str) and len(label) > 80:
        yield Problem((*at, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.",
                      label)
    if style in (1, 2, 3, 4, 5) and not label and not b.get("emoji"):
        yield Problem((*at, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                      "A button needs a label or an emoji.", label)
    yield from _emoji(b.get("emoji"), (*at, "emoji"))


def _select(s: Mapping[str, Any], at: Field) -> Iterator[Problem]:
    lo, hi = s.get("min_values", 1), s.get("max_values", 1)
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        yield Problem((*at, "min_values"), "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                      "min_values is above max_values.", lo)
    if s.get("type") != 3:
        return
    options = s.get("options") or []
    if not 1 <= len(options) <= 25:
        yield Problem((*at, "options"), "BASE_TYPE_BAD_LENGTH",
                      "Must be between 1 and 25 in length.", len(options))
    if isinstance(hi, int) and hi > len(options):
        yield Problem((*at, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                      "max_values is above the number of options.", hi)
    values: set[Any] = set()
    for j, o in enumerate(options):
        if not isinstance(o, dict):
            continue
        if o.get("value") in values:
            yield Problem((*at, "options", j, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                          "Option values must be unique.", o.get("value"))
        values.add(o.get("value"))
        yield from _emoji(o.get("emoji"), (*at, "options", j, "emoji"))


def _modal(data: Mapping[str, Any]) -> Iterator[Problem]:
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        yield Problem(("data", "components"), "BASE_TYPE_BAD_LENGTH",
                      "Must be between 1 and 5 in length.", len(components))
    title = data.get("title")
    if isinstance(title, str) and len(title) > 45:
        yield Problem(("data", "title"), "BASE_TYPE_MAX_LENGTH", "Must be 45 or fewer in length.",
                      title)
    seen: set[str] = set()
    for c, here in _walk(components, ("data", "components")):
        cid = c.get("custom_id")
        if isinstance(cid, str):
            if cid in seen:
                yield Problem((*here, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                              "Component custom id cannot be duplicated", cid)
            seen.add(cid)


# ------------------------------------------------------------------ commands


def _command_list(commands: Sequence[Any]) -> Iterator[Problem]:
    seen: set[tuple[Any, Any]] = set()
    chat = 0
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            continue
        key = (cmd.get("type", 1), cmd.get("name"))
        if key in seen:
            yield Problem((i, "name"), "APPLICATION_COMMAND_NAME_ALREADY_EXISTS",
                          "Application command names must be unique", cmd.get("name"))
        seen.add(key)
        chat += key[0] == 1
        yield from _command(cmd, (i,))
    if chat > 100:
        yield Problem((), "APPLICATION_COMMANDS_TOO_MANY", "At most 100 slash commands.", chat)


def _names(obj: Mapping[str, Any], at: Field, *, chat: bool, described: bool) -> Iterator[Problem]:
    """A command's or option's name and description, and their localisations."""
    names = [((*at, "name"), obj.get("name"))]
    names += [((*at, "name_localizations", k), v)
              for k, v in (obj.get("name_localizations") or {}).items()]
    for where, name in names:
        if not isinstance(name, str):
            continue
        if chat and (not _COMMAND_NAME.match(name) or name != name.lower()):
            yield Problem(where, "APPLICATION_COMMAND_INVALID_NAME",
                          "Command name is invalid (1-32 lower-case letters, digits, - _ ').",
                          name)
        elif not 1 <= len(name) <= 32:
            yield Problem(where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.",
                          name)
    if not described:
        return
    texts = [((*at, "description"), obj.get("description"))]
    texts += [((*at, "description_localizations", k), v)
              for k, v in (obj.get("description_localizations") or {}).items()]
    for where, text in texts:
        if not isinstance(text, str) or not 1 <= len(text) <= 100:
            yield Problem(where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.",
                          text)


def _command(cmd: Mapping[str, Any], at: Field) -> Iterator[Problem]:
    chat = cmd.get("type", 1) == 1
    yield from _names(cmd, at, chat=chat, described=chat)
    if chat:
        yield from _options(cmd.get("options") or [], (*at, "options"), depth=0)


def _options(options: Sequence[Any], at: Field, *, depth: int) -> Iterator[Problem]:
    if len(options) > 25:
        yield Problem(at, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", len(options))
    names: set[Any] = set()
    optional_seen = False
    for i, opt in enumerate(options):
        if not isinstance(opt, dict):
            continue
        here = (*at, i)
        otype = opt.get("type")
        yield from _names(opt, here, chat=True, described=True)
        if opt.get("name") in names:
            yield Problem((*here, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                          "Option names must be unique", opt.get("name"))
        names.add(opt.get("name"))
        if otype in (1, 2):
            if (otype == 2 and depth > 0) or depth > 1:
                yield Problem((*here, "type"), "APPLICATION_COMMAND_OPTION_INVALID_NESTING",
                              "Subcommands nest at most two deep.", otype)
            yield from _options(opt.get("options") or [], (*here, "options"), depth=depth + 1)
            continue
        if opt.get("required"):
            if optional_seen:
                yield Problem((*here, "required"),
                              "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                              "Required options must be placed before non-required options",
                              True)
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            yield Problem((*here, "choices"), "BASE_TYPE_MAX_LENGTH",
                          "Must be 25 or fewer in length.", len(choices))
        if choices and opt.get("autocomplete"):
            yield Problem((*here, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
                          "An option has choices or autocomplete, not both.", True)
        for j, choice in enumerate(choices):
            yield from _choice(choice, (*here, "choices", j))


def _choice(choice: Any, at: Field) -> Iterator[Problem]:
    if not isinstance(choice, dict):
        return
    names = [((*at, "name"), choice.get("name"))]
    names += [((*at, "name_localizations", k), v)
              for k, v in (choice.get("name_localizations") or {}).items()]
    for where, name in names:
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            yield Problem(where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.",
                          name)
    value = choice.get("value")
    if isinstance(value, str) and not 1 <= len(value) <= 100:
        yield Problem((*at, "value"), "BASE_TYPE_BAD_LENGTH",
                      "Must be between 1 and 100 in length.", value)
