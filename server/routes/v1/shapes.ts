/**
 * v1 wire shapes over the v2beta1 ones (spec, Versioning 3): `id`, `createdAt`, `updatedAt`
 * instead of `uid`, `createTime`, `updateTime`; role bindings carry the uids of their identity,
 * group and role (v1 has no hydrated references) and take `identity` and `role` in bodies.
 * A v1 body that uses a v2beta1 field name is refused naming the field.
 */
import type { CollectionName } from "../../../api/collections";
import { invalidField } from "../../errors";
import { V1_BODY_NAMES } from "../roleBindings";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** v2beta1 name -> v1 name, for every collection. */
const RENAMED: Record<string, string> = { uid: "id", createTime: "createdAt", updateTime: "updatedAt" };

/** v1's Tag has `lastUpdated` (v1 `last_updated`) where v2beta1's has `updateTime`. */
const TAG_RENAMED: Record<string, string> = { ...RENAMED, updateTime: "lastUpdated" };

/** A v2beta1 response item in its v1 shape. */
export function toV1(collection: CollectionName, item: unknown): unknown {
  if (!isObj(item)) return item;
  const out: Obj = {};
  const renamed = collection === "tags" ? TAG_RENAMED : RENAMED;
  for (const [k, v] of Object.entries(item)) {
    // v1 role bindings reference their identity, group and role by id.
    if (collection === "roleBindings" && isObj(v) && (k === "identity" || k === "group" || k === "role")) out[k] = v.uid;
    else out[renamed[k] ?? k] = v;
  }
  return out;
}

/**
 * A v1 request body as the v2beta1 model takes it. `target` is the id a PATCH addresses (the
 * body may echo it back, as a v1 client sends the object it read), undefined for a create.
 */
export function fromV1(collection: CollectionName, body: unknown, target?: { id: string; group?: string }): unknown {
  if (!isObj(body)) return body;
  const v2Names = collection === "roleBindings" ? { ...RENAMED, ...V1_BODY_NAMES } : RENAMED;
  const out: Obj = {};
  for (const [k, v] of Object.entries(body)) {
    if (k in v2Names) throw invalidField(k, `is the v2beta1 name of this field; v1 calls it ${v2Names[k]}`);
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

/** Fields a v1 PATCH leaves alone when omitted: write-only secrets, which a client cannot echo back. */
const KEPT_WHEN_OMITTED = new Set(["oidc.clientSecret"]);

/**
 * The update mask that gives v1's PATCH rule (every updatable field is replaced, so an omitted
 * field is reset): each top-level path, or for objects the mask lists member by member, each
 * member, except write-only members the body omits.
 */
export function resetMask(paths: Set<string>, body: unknown): string[] {
  const nested = new Set([...paths].filter((p) => p.includes(".")).map((p) => p.split(".")[0]));
  const given = (p: string) => {
    const [head, sub] = p.split(".");
    const v = isObj(body) ? body[head] : undefined;
    return isObj(v) && v[sub] !== undefined;
  };
  return [...paths].filter((p) => (p.includes(".") ? !KEPT_WHEN_OMITTED.has(p) || given(p) : !nested.has(p)));
}
