import { NotFoundError, PermissionDeniedError, clientFor, readSettings, type ConfigGetter, type IrvClient } from "../client";
import { uidsToLookUp } from "./evaluate";
import type { RemoteItem, World } from "./world";
import { readBack } from "../api/kinds";

/** What was looked up already, by uid (null: the API does not show it). */
export type LookupCache = Map<string, Promise<RemoteItem | null>>;

/**
 * Looks up, through the API, the roles and identities `world`'s resources name by uid (a
 * built-in role from `getRole`, an identity made elsewhere), with the settings from `get`
 * (Pulumi config keys `irv:*`), else the environment (`IRV_API_URL`, `IRV_TOKEN`, ...). With no
 * API URL set, or none to look up, it looks up nothing: the rules then judge only what the
 * program itself says. A uid the API does not know, or does not show these credentials, is left
 * out. `cache` keeps answers across calls (the pack's stack policies share one). `onSkipped` hears
 * what was not looked up for want of an API URL.
 */
export async function lookUpRemote(
  world: World,
  o: { get?: ConfigGetter; client?: IrvClient; cache?: LookupCache; onSkipped?: (wanted: ReturnType<typeof uidsToLookUp>) => void } = {},
): Promise<Map<string, RemoteItem>> {
  const out = new Map<string, RemoteItem>();
  const wanted = uidsToLookUp(world);
  if (wanted.length === 0) return out;
  let client = o.client;
  if (!client) {
    const settings = readSettings(o.get);
    if (!settings.apiUrl) {
      o.onSkipped?.(wanted);
      return out;
    }
    client = clientFor(settings);
  }
  const cache: LookupCache = o.cache ?? new Map();
  for (const { kind, uid } of wanted) {
    let answer = cache.get(`${kind}:${uid}`);
    if (!answer) {
      answer = client.get(kind, uid).then(
        // The fields as programs spell them (a role's capabilities by name, not by the wire's enum).
        (item) => ({ kind, uid, item: { ...item, ...readBack(kind, item) } }),
        (e) => {
          if (e instanceof NotFoundError || e instanceof PermissionDeniedError) return null;
          throw e;
        },
      );
      cache.set(`${kind}:${uid}`, answer);
    }
    const item = await answer;
    if (item) out.set(uid, item);
  }
  return out;
}
