/** Bad input of every shape gets a 4xx in the error model, never a 500, and changes nothing. */
import { describe, expect, it } from "vitest";
import { COLLECTIONS, codes } from "../../api";
import { path, useServer } from "../support/server";
import { ok } from "../support/server-helpers";

const ctx = useServer({ fixtures: {} });

const BODIES: unknown[] = [
  null,
  0,
  "text",
  [],
  [{}],
  { name: null },
  { name: ["a"] },
  { name: "X".repeat(10_000) },
  { oidc: "x" },
  { claimMatch: [] },
  { capabilities: "groups.list" },
  { identityUid: 5, roleUid: {} },
  { ttl: 5 },
  { amazon: { account: 123456789012 } },
  { __proto__: { name: "x" } },
  { constructor: { prototype: {} } },
];
const QUERIES: Record<string, string>[] = [
  { page_size: "1e3" },
  { page_size: "99999999999" },
  { skip: "x" },
  { order_by: "" },
  { order_by: " desc" },
  { order_by: "__proto__" },
  { order_by: "constructor" },
  { page_token: "." },
  { page_token: "a.b.c" },
  { "uidp.ids": "," },
  { "uidp.children_of": "%zz" },
  { updateMask: "__proto__" },
  { name: "" },
  // Names every plain object inherits: a parameter, sort field or alias is looked up as the table's own only.
  { constructor: "x" },
  { toString: "x" },
  { hasOwnProperty: "x" },
  { valueOf: "x" },
  { order_by: "to_string" },
  { order_by: "has_own_property desc" },
];

describe("robustness", () => {
  it("answers every malformed request with a 4xx Status", async () => {
    const org = ctx.server.organization;
    const before = ok(await ctx.api.get(path("groups"))).totalCount;
    const failures: string[] = [];
    const check = async (what: string, p: Promise<{ status: number; body: any; text: string }>) => {
      const r = await p;
      const known = Object.values(codes).some((c) => c.code === r.body?.code) || r.body?.code === 12;
      if (r.status >= 500 || (r.status >= 400 && (!known || typeof r.body?.message !== "string")))
        failures.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
    };
    for (const name of Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]) {
      for (const body of BODIES) {
        await check(`POST ${name} ${JSON.stringify(body)}`, ctx.api.post(path(name, org), body));
        await check(`PATCH ${name} ${JSON.stringify(body)}`, ctx.api.patch(path(name, org), body));
      }
      for (const q of QUERIES) {
        await check(`GET ${name} ${JSON.stringify(q)}`, ctx.api.get(path(name), q));
        await check(`PATCH ${name} ${JSON.stringify(q)}`, ctx.api.patch(path(name, org), {}, q));
      }
      for (const uid of ["", "/", "%", "%2F", "..%2F..", `${org}/`, `${org}//x`, `${org}%2f0123456789abcdef`, "x".repeat(5000)])
        await check(`GET ${name}/${uid}`, ctx.api.get(`${path(name)}/${uid}`));
    }
    expect(failures).toEqual([]);
    expect(ok(await ctx.api.get(path("groups"))).totalCount).toBe(before);
  });
});
