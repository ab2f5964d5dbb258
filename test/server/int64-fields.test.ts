/**
 * Every int64 field of the kinds (found in their proto facts, not listed by hand) takes one rule
 * on both doors: digits no larger than an int64 holds. Past it, REST and gRPC answer the same
 * INVALID_ARGUMENT naming the field; at the bound, what REST stores reads back the same through
 * gRPC (before, a GitHub app id of 23 digits or an installation id past 2^63 came back changed).
 */
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INT64_MAX } from "../../api/fields";
import { KINDS, type KindDefinition } from "../../api/kinds";
import { grpcFor, type GrpcApi } from "../support/grpc";
import { path, useServer } from "../support/server";
import { ok } from "../support/server-helpers";

const IAM = "chainguard.platform.iam.v2beta1";
const ASSOCIATIONS = `${IAM}.AccountAssociationsService`;
const LONG = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** Every 64-bit integer in the kinds' proto facts, a field's value or a map's key: `Message.field` or `Message.field[key]`. */
function int64Facts(): string[] {
  const found: string[] = [];
  for (const d of KINDS as readonly KindDefinition[]) {
    for (const m of d.proto.messages ?? []) {
      for (const [name, f] of Object.entries(m.fields)) {
        if (LONG.has(f.type)) found.push(`${m.name}.${name}`);
        if (f.keyType && LONG.has(f.keyType)) found.push(`${m.name}.${name}[key]`);
      }
    }
    for (const [name, f] of Object.entries(d.fields)) if ("proto" in f && f.proto && LONG.has(f.proto.type)) found.push(`${d.proto.message}.${name}`);
  }
  return found.sort();
}

/**
 * How to carry a value in each of them: an account association's body with the value in place,
 * and the field REST names in its error.
 */
const PROBES: Record<string, { body: (v: string) => object; field: (v: string) => string }> = {
  "AccountAssociation.GitHub.appInstallations[key]": {
    body: (v) => ({ name: "gh", github: { appInstallations: { [v]: { installations: [{ installationId: "7", name: "acme" }] } } } }),
    field: (v) => `github.appInstallations.${v}`,
  },
  "AccountAssociation.GitHubInstallation.installationId": {
    body: (v) => ({ name: "gh", github: { appInstallations: { "12345": { installations: [{ installationId: v, name: "acme" }] } } } }),
    field: () => "github.appInstallations.12345.installations.0.installationId",
  },
};

describe("int64 fields", () => {
  const ctx = useServer();
  let g: GrpcApi;
  beforeAll(() => {
    g = grpcFor(ctx.server.url, ctx.server.token);
  });
  afterAll(() => g.close());

  it("are found in the kinds' proto facts, each with a probe here", () => {
    expect(int64Facts()).toEqual(Object.keys(PROBES).sort());
  });

  it.each(Object.keys(PROBES))("%s: past an int64, REST and gRPC refuse it naming the field; at the bound both read back what was stored", async (fact) => {
    const probe = PROBES[fact];
    const max = String(INT64_MAX);
    for (const tooLarge of [String(INT64_MAX + 1n), "12345678901234567890123", "99999999999999999999"]) {
      // Each try on a group of its own: one association per group.
      const group = ok(await ctx.api.post(path("groups", ctx.server.organization), { name: `g-${tooLarge.slice(-6)}-${fact.length}` }));
      const rest = await ctx.api.post(path("accountAssociations", group.uid), probe.body(tooLarge));
      expect(rest.status, rest.text).toBe(400);
      const violation = { field: probe.field(tooLarge), description: `must be at most ${max} (the API holds it in an int64)` };
      expect(rest.body.details[1].fieldViolations).toEqual([violation]);
      // gRPC cannot carry it in an int64 at all; the same write through an update is refused alike.
      ok(await ctx.api.post(path("accountAssociations", group.uid), { name: "gh", amazon: { account: "123456789012" } }));
      const patched = await ctx.api.patch(path("accountAssociations", group.uid), probe.body(tooLarge));
      expect(patched.body.details?.[1]?.fieldViolations).toEqual([violation]);
    }
    // A negative value (what a uint64 past 2^63 becomes in an int64) is refused on both doors.
    const group = ok(await ctx.api.post(path("groups", ctx.server.organization), { name: `g-edge-${fact.length}` }));
    const negative = await g.call(ASSOCIATIONS, "CreateAccountAssociation", { parent: group.uid, accountAssociation: probe.body("-5") });
    if (!("error" in negative)) throw new Error("a negative int64 was taken");
    expect(status[negative.error.code]).toBe("INVALID_ARGUMENT");
    expect(negative.status.details[1].fieldViolations[0].field).toContain(probe.field("-5").split(".").slice(0, 2).join("."));
    expect((await ctx.api.post(path("accountAssociations", group.uid), probe.body("-5"))).status).toBe(400);
    // At the bound: stored through REST, read back unchanged through both doors.
    const stored = ok(await ctx.api.post(path("accountAssociations", group.uid), probe.body(max)));
    const viaGrpc = await g.call(ASSOCIATIONS, "GetAccountAssociation", { uid: group.uid });
    if ("error" in viaGrpc) throw new Error(viaGrpc.error.details);
    expect(viaGrpc.ok.github).toEqual(stored.github);
    expect(JSON.stringify(stored.github)).toContain(max);
  });
});
