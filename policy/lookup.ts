import { NotFoundError, clientFor, readSettings, type ConfigGetter, type IrvClient } from "../client";
import { uidsToLookUp, type RemoteItem, type World } from "./rules";

/**
 * Looks up, through the API, the roles and identities `world`'s resources name by uid (a
 * built-in role from `getRole`, an identity made elsewhere), with the settings from `get`
 * (Pulumi config keys `irv:*`), else the environment (`IRV_API_URL`, `IRV_TOKEN`, ...). With no
 * API URL set, or none to look up, it looks up nothing: the rules then judge only what the
 * program itself says. A uid the API does not know is left out.
 */
export async function lookUpRemote(world: World, get?: ConfigGetter, client?: IrvClient): Promise<Map<string, RemoteItem>> {
  const out = new Map<string, RemoteItem>();
  const wanted = uidsToLookUp(world);
  if (wanted.length === 0) return out;
  if (!client) {
    const settings = readSettings(get);
    if (!settings.apiUrl) return out;
    client = clientFor(settings);
  }
  for (const { kind, uid } of wanted) {
    try {
      out.set(uid, { kind, uid, item: (await client.get(kind, uid)) as unknown as Record<string, unknown> });
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
    }
  }
  return out;
}
