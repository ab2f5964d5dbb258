/**
 * v1 wire shapes over the v2beta1 ones (spec, Versioning 3; the v1 protos' messages):
 * `id`, `createdAt`, `updatedAt` instead of `uid`, `createTime`, `updateTime` (an account
 * association's id is its `group`); role bindings carry the uids of their identity, group and role
 * (v1 has no hydrated references) and take `identity` and `role` in bodies; an identity's
 * `static` keys (with `expiration`), `lastSeen` and a service principal without its
 * `SERVICE_PRINCIPAL_` prefix; a role's capabilities by their human-readable names
 * (`groups.list`); an invite's `expiration`, its role as a v1 Role, and `role` (a uid) in a create.
 * A v1 body that uses a v2beta1 field name is refused naming the field.
 */
import { capabilityEnum, capabilityNamed } from "../../../api/capabilities";
import type { CollectionName } from "../../../api/collections";
import { isObject } from "../../../api/guards";
import { invalidField } from "../../errors";
import { V1_BODY_NAMES } from "../roleBindings";

type Obj = Record<string, unknown>;

/** v2beta1 name -> v1 name, for every collection. */
const RENAMED: Record<string, string> = { uid: "id", createTime: "createdAt", updateTime: "updatedAt" };

/** Per collection, v2beta1 name -> v1 name, beyond RENAMED. */
const KIND_RENAMED: Partial<Record<CollectionName, Record<string, string>>> = {
  tags: { updateTime: "lastUpdated" },
  // A v1 Repo has `create_time` as v2beta1 does, and no update time.
  repos: { createTime: "createTime", updateTime: "updateTime" },
  identities: { staticKeys: "static", lastSeenTime: "lastSeen" },
  accountAssociations: { uid: "group" },
  groupInvites: { expirationTime: "expiration" },
};
const renamesOf = (c: CollectionName): Record<string, string> => ({ ...RENAMED, ...KIND_RENAMED[c] });

/** Fields of a v1 Identity (platform/iam/v1): v2beta1's people fields (email, company, ...) are not in it. */
const V1_IDENTITY = new Set(["id", "name", "description", "createdAt", "updatedAt", "lastSeen", "claimMatch", "static", "servicePrincipal", "awsIdentity"]);
const SP_PREFIX = "SERVICE_PRINCIPAL_";

/**
 * A repo's catalog tier by its v1 name (`APPLICATION`; unset is `UNKNOWN`), and back: v2beta1
 * prefixes the same values with `CATALOG_TIER_`.
 */
const TIER_PREFIX = "CATALOG_TIER_";
const V1_UNSET_TIER = "UNKNOWN";
const v1Tier = (t: unknown): unknown => (t === `${TIER_PREFIX}UNSPECIFIED` ? V1_UNSET_TIER : typeof t === "string" ? t.replace(TIER_PREFIX, "") : t);
const v2Tier = (t: unknown): unknown =>
  t === V1_UNSET_TIER ? `${TIER_PREFIX}UNSPECIFIED` : typeof t === "string" && !t.startsWith(TIER_PREFIX) ? `${TIER_PREFIX}${t}` : t;

/** A repo's sync_config as v1 writes it: `expiration` for v2beta1's `expirationTime`. */
function v1Sync(v: unknown): unknown {
  if (!isObject(v)) return v;
  const { expirationTime, ...rest } = v;
  return { ...rest, ...(expirationTime === undefined ? {} : { expiration: expirationTime }) };
}

/** Capabilities by their human-readable names, as v1 carries them (`CAP_IAM_GROUPS_LIST` -> `groups.list`). */
const readable = (caps: unknown): unknown => (Array.isArray(caps) ? caps.map((c) => (typeof c === "string" ? (capabilityNamed(c) ?? c) : c)) : caps);

/** A v2beta1 role (an invite's hydrated one) as a v1 Role. */
const v1Role = (r: Obj): Obj => ({ id: r.uid, name: r.name, description: r.description, capabilities: readable(r.capabilities) });

/** A v2beta1 response item in its v1 shape. */
export function toV1(collection: CollectionName, item: unknown): unknown {
  if (!isObject(item)) return item;
  const out: Obj = {};
  const renamed = renamesOf(collection);
  for (const [k, v] of Object.entries(item)) {
    // v1 role bindings reference their identity, group and role by id.
    if (collection === "roleBindings" && isObject(v) && (k === "identity" || k === "group" || k === "role")) out[k] = v.uid;
    else if (collection === "identities" && k === "staticKeys" && isObject(v)) {
      const { expirationTime, ...keys } = v;
      out.static = { ...keys, ...(expirationTime === undefined ? {} : { expiration: expirationTime }) };
    } else if (collection === "identities" && k === "servicePrincipal" && typeof v === "string") out[k] = v.replace(SP_PREFIX, "");
    else if (collection === "roles" && k === "capabilities") out[k] = readable(v);
    else if (collection === "repos" && k === "catalogTier") out[k] = v1Tier(v);
    else if (collection === "repos" && k === "sync_config") out[k] = v1Sync(v);
    else if (collection === "repos" && k === "updateTime") continue;
    else if (collection === "groupInvites" && k === "role" && isObject(v)) out.role = v1Role(v);
    else if (collection === "groupInvites" && k === "roleUid") continue;
    else out[renamed[k] ?? k] = v;
  }
  if (collection === "identities") for (const k of Object.keys(out)) if (!V1_IDENTITY.has(k)) delete out[k];
  return out;
}

/**
 * A v2beta1 item as a v1 List answers it: as toV1 does, but for a role binding, which v1 lists as
 * a `RoleBindingList.Binding`: its group and role as v1 messages, its identity by id.
 */
export function toV1Listed(collection: CollectionName, item: unknown): unknown {
  if (collection !== "roleBindings" || !isObject(item)) return toV1(collection, item);
  const out = toV1(collection, item) as Obj;
  if (isObject(item.group)) out.group = toV1("groups", item.group);
  if (isObject(item.role)) out.role = v1Role(item.role);
  return out;
}

/**
 * A v1 request body as the v2beta1 model takes it. `target` is the id a PATCH addresses (the
 * body may echo it back, as a v1 client sends the object it read), undefined for a create.
 */
export function fromV1(collection: CollectionName, body: unknown, target?: { id: string; group?: string }): unknown {
  if (!isObject(body)) return body;
  const v2Names: Record<string, string> =
    collection === "roleBindings" ? { ...RENAMED, ...V1_BODY_NAMES } : collection === "groupInvites" ? { ...RENAMED, roleUid: "role" } : renamesOf(collection);
  const out: Obj = {};
  for (const [k, v] of Object.entries(body)) {
    if (Object.hasOwn(v2Names, k) && v2Names[k] !== k) throw invalidField(k, `is the v2beta1 name of this field; v1 calls it ${v2Names[k]}`);
    if (collection === "accountAssociations" && k === "group") {
      // The association's id: the group in the path (a v1 client echoes it back).
      if (target === undefined ? false : v !== target.id) throw invalidField("group", `must be the group in the path, ${target?.id}`);
      continue;
    }
    if (collection === "identities" && k === "lastSeen") continue;
    if (collection === "identities" && k === "static" && isObject(v)) {
      const { expiration, ...keys } = v;
      out.staticKeys = { ...keys, ...(expiration === undefined ? {} : { expirationTime: expiration }) };
      continue;
    }
    if (collection === "identities" && k === "servicePrincipal" && typeof v === "string" && v !== "" && !v.startsWith(SP_PREFIX)) {
      out[k] = `${SP_PREFIX}${v}`;
      continue;
    }
    if (collection === "roles" && k === "capabilities" && Array.isArray(v)) {
      out[k] = v.map((c) => (typeof c === "string" ? capabilityEnum(c) : c));
      continue;
    }
    if (collection === "repos" && k === "catalogTier") {
      if (typeof v === "string" && v.startsWith(TIER_PREFIX)) throw invalidField(k, `${v} is the v2beta1 name of this tier; v1 calls it ${String(v1Tier(v))}`);
      out[k] = v2Tier(v);
      continue;
    }
    // Output times a client echoes back are ignored, as v1 did.
    if ((collection === "repos" && k === "createTime") || (collection === "tags" && k === "lastUpdated")) continue;
    if (collection === "groupInvites" && k === "role") {
      out.roleUid = v;
      continue;
    }
    if (collection === "groupInvites" && k === "group") continue;
    if (k === "id") {
      if (target === undefined) throw invalidField("id", "is assigned by the server");
      if (v !== target.id) throw invalidField("id", `must be the id in the path, ${target.id}`);
      continue;
    }
    // Output times a client echoes back are ignored, as v1 did.
    if (k === "createdAt" || k === "updatedAt") continue;
    if (collection === "roleBindings" && k === "group") {
      if (v !== target?.group) throw invalidField("group", "a binding's group is in the path and cannot change");
      continue;
    }
    if (collection === "roleBindings" && (k === "identity" || k === "role")) out[`${k}Uid`] = v;
    else out[k] = v;
  }
  return out;
}
