/**
 * Shared set-up for provider tests: a live irv-server on 127.0.0.1:0, the provider configured
 * against it with the admin token, and small API helpers for prerequisites and out-of-band
 * changes (made through plain HTTP, not through the provider).
 */
import { beforeAll, expect } from "vitest";
import { configure } from "../../provider";
import type { ServerOptions } from "../../server";
import { useServer, path, type TestServer } from "./server";
import { created } from "./server-helpers";

export { path };
export { created } from "./server-helpers";

/** Starts a server for the file (with `opts`) and points the provider at it. */
export function useProviderServer(opts: ServerOptions = {}): TestServer {
  const ctx = useServer(opts);
  beforeAll(() => {
    const settings: Record<string, string> = { "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token };
    configure((key) => settings[key]);
  });
  return ctx;
}

let seq = 0;
/** A unique, valid name. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq++}`;
}

/** A fresh group under the organization. */
export async function freshGroup(ctx: TestServer, parentUid = ctx.server.organization): Promise<string> {
  return (await created(ctx.api, "groups", parentUid, { name: uniqueName("g") })).uid;
}

/** The uid of a built-in role by name. */
export async function builtinRole(ctx: TestServer, name: string): Promise<string> {
  const res = await ctx.api.get(path("roles"), { name });
  expect(res.status, res.text).toBe(200);
  const role = res.body.roles.find((r: any) => r.name === name && !r.uid.includes("/"));
  expect(role, `built-in role ${name}`).toBeTruthy();
  return role.uid;
}

/** Throws when `undefined` appears anywhere in `v` (the provider host cannot encode it). */
export function expectNoUndefined(v: unknown, at = "outs"): void {
  if (v === undefined) throw new Error(`undefined at ${at}`);
  if (Array.isArray(v)) v.forEach((x, i) => expectNoUndefined(x, `${at}[${i}]`));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) expectNoUndefined(x, `${at}.${k}`);
}

/** The recorded requests matching method and path prefix, newest last. */
export function requestsTo(ctx: TestServer, method: string, pathPrefix: string) {
  return ctx.server.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
}

/** The updateMask of the last PATCH to `p`, as a sorted list. */
export function lastMask(ctx: TestServer, p: string): string[] {
  const patches = ctx.server.requests.filter((r) => r.method === "PATCH" && r.path === p);
  expect(patches.length, `a PATCH to ${p}`).toBeGreaterThan(0);
  const mask = String(patches[patches.length - 1].query.updateMask ?? "");
  return mask.split(",").filter(Boolean).sort();
}
