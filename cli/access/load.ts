/**
 * The access model `irv access` asks: a stack's state (with the roles and identities it names by
 * uid looked up through the API when its settings are at hand), or the live organization listed
 * through the API with the provider's settings.
 */
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import type { StackContents } from "../stack";
import { withLogin } from "../../client/auth";
import { clientFor, readSettings, type IrvClient, type Settings } from "../../client";
import { lookUpRemote } from "../../policy/lookup";
import { AccessModel, itemsOfApi, itemsOfState, orgOfItems, unlistable, type Known, type ResourceItem, type StateResource } from "../../policy/access";
import type { World } from "../../policy/world";
import { Asker, type Named } from "./ask";

/** The roles and identities `items` name by uid and do not hold, read through `client` (none without one). */
export async function knownOf(items: readonly ResourceItem[], client: IrvClient | undefined): Promise<Known> {
  if (!client) return {};
  const world: World = { subjects: items.map((i) => ({ urn: i.key, name: i.label, kind: i.kind, inputs: i.fields, uid: i.uid })) };
  const remote = await lookUpRemote(world, { client });
  const roles = new Map<string, { name?: string; capabilities?: readonly string[] }>();
  const names = new Map<string, string>();
  for (const [uid, r] of remote) {
    const name = typeof r.item.name === "string" ? r.item.name : undefined;
    if (name) names.set(uid, name);
    const caps = r.item.capabilities;
    if (r.kind === "roles")
      roles.set(uid, { name, capabilities: Array.isArray(caps) && caps.every((c): c is string => typeof c === "string") ? caps : undefined });
  }
  return { roles, names };
}

/**
 * The client of a stack's `irv:*` settings, else the environment the engine gets (the
 * workspace's variables over this process's, where a login's folder may be set), or undefined
 * when they name no API.
 */
export async function stackClient(stack: Stack): Promise<IrvClient | undefined> {
  return clientOfContents({ config: await stack.getAllConfig(), env: { ...process.env, ...(stack.workspace as LocalWorkspace).envVars } });
}

/** The client of a stack's read contents (see stackClient). */
export function clientOfContents({ config, env }: Pick<StackContents, "config" | "env">): IrvClient | undefined {
  const settings = withLogin(
    readSettings((key) => config[key]?.value, env),
    env,
  );
  return settings.apiUrl ? clientFor(settings, { env }) : undefined;
}

/** An asker over a stack's state. */
export async function askState(stack: Stack): Promise<Asker> {
  const state = await stack.exportStack();
  const items = itemsOfState((state.deployment?.resources ?? []) as StateResource[]);
  const org = orgOfItems(items, await knownOf(items, await stackClient(stack)));
  return new Asker(new AccessModel(org));
}

/** An asker over the live organization, as the credentials in `settings` may list it. */
export async function askApi(settings: Settings): Promise<Asker> {
  const client = clientFor(settings);
  const items = await itemsOfApi(client);
  const org = orgOfItems(items);
  const probed = new Map<string, Promise<string[]>>();
  const unseenFor = async (groups: Named[]) => {
    const out: string[] = [];
    for (const g of groups) {
      const uid = g.uid ?? g.key;
      if (!probed.has(uid)) probed.set(uid, unlistable(client, [{ uid, name: g.name }]));
      out.push(...(await probed.get(uid)!));
    }
    return out;
  };
  return new Asker(new AccessModel(org), unseenFor);
}
