/**
 * Refresh reads in pages (issue 20, provider/resources/reads.ts), through the real engine, on the
 * resource plugin and on the dynamic classes: an org of every kind (groups at two levels, roles,
 * identities of all four relationship types, hydrated role bindings, identity providers, account
 * associations, invites, events subscriptions) is checked with `irv drift` and `irv review --refresh`, and refreshed,
 * after edits and deletions made by hand. Both must find every edit and deleted resource (the refresh drops it), in far fewer
 * requests than one per resource, and the refresh still finds them with 20% of its requests
 * faulted by the chaos proxy.
 */
import { ACCESS_KINDS } from "../../policy/access";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRoleUid } from "../../server";
import * as nodePath from "node:path";
import { createStack, ENGINE_TIMEOUT, loadSdk, PluginResource, pulumiEnv, usePluginFrom, type TestStack } from "../support/engine";
import { runIrv } from "../support/cli";
import { runReview } from "../../cli";
import { startChaosProxy, type ChaosProxy } from "../support/chaos-proxy";
import { JWKS } from "../support/every-kind";
import { path, useServer } from "../support/server";
import type { CollectionName } from "../../api/collections";
import { KINDS as ALL_KINDS } from "../../api/kinds";

const TEAMS = 6;
/** Resources per team: 2 groups, a role, 4 identities, a binding, an IdP, an account association, an invite, a subscription. */
const PER_TEAM = 12;
const N = TEAMS * PER_TEAM;
/** The kinds the org holds: every one. */
const KINDS = ALL_KINDS.length;
/** How long a listing answers reads in these tests (IRV_LIST_FRESH_MS): an hour. */
const FRESH_FOR_TESTS = 3_600_000;

/** Declares a resource of the kind whose display name is `kind` (`events.Subscription`; an IAM class by its name alone). */
type Declare = (kind: string, name: string, args: Record<string, pulumi.Input<unknown>>) => { uid: pulumi.Output<string> };

/** The org, declared through `declare` (the plugin's type tokens or the dynamic classes). */
function orgProgram(organization: string, declare: Declare): PulumiFn {
  const viewer = builtinRoleUid("viewer");
  const expirationTime = new Date(Date.now() + 30 * 86400_000).toISOString().replace(/\.\d+Z$/, ".000Z");
  return async () => {
    for (let i = 0; i < TEAMS; i++) {
      const team = declare("Group", `team-${i}`, { parentUid: organization, name: `team-${i}`, description: `team ${i}` });
      const squad = declare("Group", `squad-${i}`, { parentUid: team.uid, name: "squad" });
      const role = declare("Role", `role-${i}`, { groupUid: team.uid, name: `reader-${i}`, capabilities: ["repo.list", "tag.list"] });
      const ci = declare("Identity", `ci-${i}`, {
        groupUid: team.uid,
        name: `ci-${i}`,
        claimMatch: { issuer: "https://ci.example.com", subject: `repo:acme/team-${i}:ref:refs/heads/main` },
      });
      declare("Identity", `keys-${i}`, {
        groupUid: team.uid,
        name: `keys-${i}`,
        staticKeys: { issuer: "https://keys.example.com", subject: `signer-${i}`, issuerKeys: JWKS, expirationTime },
      });
      declare("Identity", `aws-${i}`, {
        groupUid: squad.uid,
        name: `aws-${i}`,
        awsIdentity: { awsAccount: "123456789012", arnPattern: "^arn:aws:iam::123456789012:role/runner-.*$" },
      });
      declare("Identity", `syncer-${i}`, { groupUid: team.uid, name: `syncer-${i}`, servicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER" });
      declare("RoleBinding", `ci-${i}-reader`, { groupUid: squad.uid, identityUid: ci.uid, roleUid: role.uid });
      declare("IdentityProvider", `sso-${i}`, {
        groupUid: team.uid,
        name: `sso-${i}`,
        defaultRoleUid: viewer,
        oidc: { issuer: "https://accounts.example.com", clientId: `client-${i}`, clientSecret: `secret-${i}` },
      });
      declare("AccountAssociation", `accounts-${i}`, { groupUid: team.uid, name: `accounts-${i}`, amazon: { account: "123456789012" } });
      declare("GroupInvite", `invite-${i}`, { groupUid: team.uid, roleUid: viewer, ttl: "86400s", email: `team-${i}@example.com` });
      declare("events.Subscription", `hook-${i}`, { parentUid: squad.uid, sink: `https://hooks.acme.example/team-${i}` });
    }
  };
}

const dynamicDeclare: Declare = (kind, name, args) => {
  const [module, className] = kind.includes(".") ? kind.split(".") : ["iam", kind];
  // The classes by name, as the kinds' definitions name them: a namespace holds classes of every signature.
  const ns = (loadSdk() as unknown as Record<string, Record<string, new (n: string, a: object) => { uid: pulumi.Output<string> }>>)[module];
  return new ns[className](name, args);
};
const pluginDeclare: Declare = (className, name, args) => new PluginResource(className, name, args);

/** Each resource's outputs in the stack's state, by its name. */
async function outputsByName(t: TestStack): Promise<Map<string, Record<string, any>>> {
  const resources =
    ((await t.stack.exportStack()).deployment as { resources?: { urn: string; custom?: boolean; type: string; outputs?: Record<string, any> }[] }).resources ??
    [];
  return new Map(resources.filter((r) => r.custom && !r.type.startsWith("pulumi:providers:")).map((r) => [r.urn.split("::").pop()!, r.outputs ?? {}]));
}

/** The hand edits and deletions of one round, made through plain HTTP (round `r` keeps values unique). */
interface HandWork {
  edits: { name: string; field: string; value: unknown }[];
  deleted: string[];
  /** The uids of the deleted ones. */
  uids: string[];
}

describe("refresh answers reads from listings, exactly", () => {
  const ctx = useServer();
  let proxy: ChaosProxy;
  beforeAll(async () => {
    proxy = await startChaosProxy(ctx.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** Edits and deletes by hand resources of team `i` (through the server, not the proxy). */
  async function handWork(outs: Map<string, Record<string, any>>, i: number, tag: string): Promise<HandWork> {
    const patch = async (c: CollectionName, name: string, body: object, mask: string) => {
      const res = await ctx.api.patch(path(c, outs.get(name)!.uid), body, { updateMask: mask });
      expect(res.status, res.text).toBe(200);
    };
    const del = async (c: CollectionName, name: string) => {
      const res = await ctx.api.del(path(c, outs.get(name)!.uid));
      expect(res.status, res.text).toBe(200);
    };
    await patch("groups", `team-${i}`, { description: `edited ${tag}` }, "description");
    await patch("identities", `aws-${i}`, { description: `edited ${tag}` }, "description");
    await patch("roles", `role-${i}`, { capabilities: ["CAP_REPO_LIST"] }, "capabilities");
    await patch("identityProviders", `sso-${i}`, { description: `edited ${tag}` }, "description");
    await del("groupInvites", `invite-${i}`);
    await del("identities", `syncer-${i}`);
    await del("roleBindings", `ci-${i}-reader`);
    await del("accountAssociations", `accounts-${i}`);
    await del("subscriptions", `hook-${i}`);
    return {
      edits: [
        { name: `team-${i}`, field: "description", value: `edited ${tag}` },
        { name: `aws-${i}`, field: "description", value: `edited ${tag}` },
        { name: `role-${i}`, field: "capabilities", value: ["repo.list"] },
        { name: `sso-${i}`, field: "description", value: `edited ${tag}` },
      ],
      deleted: [`invite-${i}`, `syncer-${i}`, `ci-${i}-reader`, `accounts-${i}`, `hook-${i}`],
      uids: [`invite-${i}`, `syncer-${i}`, `ci-${i}-reader`, `accounts-${i}`, `hook-${i}`].map((n) => outs.get(n)!.uid),
    };
  }

  /** Every edit is in the refreshed state, every deleted resource is gone from it, the rest stays. */
  function expectFound(outs: Map<string, Record<string, any>>, work: HandWork, before: number): void {
    for (const e of work.edits) expect(outs.get(e.name)?.[e.field], `${e.name}.${e.field}`).toEqual(e.value);
    for (const d of work.deleted) expect(outs.has(d), `${d} dropped`).toBe(false);
    expect(outs.size).toBe(before - work.deleted.length);
  }

  for (const [side, declare] of [
    ["the resource plugin", pluginDeclare],
    ["the dynamic classes", dynamicDeclare],
  ] as const) {
    it(`${side}: finds edits and deletions in a few listings, also at 20% faults`, { timeout: 4 * ENGINE_TIMEOUT }, async () => {
      const t = await createStack({
        stackName: side.includes("plugin") ? "batched-plugin" : "batched-dynamic",
        program: orgProgram(ctx.server.organization, declare),
        server: { url: proxy.url, authUrl: ctx.server.authUrl, token: ctx.server.token },
        // A listing lives 30 s by default: far longer here, so that no bound below depends on how
        // fast a loaded machine refreshes.
        env: { IRV_REQUEST_TIMEOUT_MS: "2000", IRV_LIST_FRESH_MS: String(FRESH_FOR_TESTS) },
      });
      try {
        if (side.includes("plugin")) await usePluginFrom(t);
        await t.stack.up();
        let outs = await outputsByName(t);
        expect(outs.size).toBe(N);

        // Without faults: the requests of `irv drift`, then of the refresh, are counted at the server.
        const work = await handWork(outs, 0, "by hand");
        const stackName = side.includes("plugin") ? "batched-plugin" : "batched-dynamic";
        const driftFrom = ctx.server.requests.length;
        const drift = await runIrv(
          ["drift", "--stack", stackName, "--cwd", t.workDir, "--format", "json"],
          pulumiEnv(nodePath.join(nodePath.dirname(t.workDir), "home"), { IRV_LIST_FRESH_MS: String(FRESH_FOR_TESTS) }),
        );
        expect(drift.code, drift.stderr).toBe(2);
        const report = JSON.parse(drift.stdout);
        expect(report).toMatchObject({ inSync: false, changed: work.edits.length, deleted: work.deleted.length });
        // Besides the refresh's reads, drift of access lists each kind of the access model once per
        // top managed group (one page each here), and the roles above them once.
        // The top managed groups are the teams (each squad sits under one).
        expect([...report.access.watched.groups].sort()).toEqual(Array.from({ length: TEAMS }, (_, i) => `team-${i}`).sort());
        const accessLists = TEAMS * ACCESS_KINDS.length + 1;
        expect(ctx.server.requests.length - driftFrom).toBeLessThanOrEqual(4 * KINDS + work.deleted.length + accessLists);
        // irv read them itself (the stack holds irv resources only, on default providers): the
        // engine's refresh, asked for, finds the same drift, field for field, in the same order.
        expect(report.readBy).toEqual({ engine: false });
        const viaEngine = await runIrv(
          ["drift", "--engine", "--stack", stackName, "--cwd", t.workDir, "--format", "json"],
          pulumiEnv(nodePath.join(nodePath.dirname(t.workDir), "home"), { IRV_LIST_FRESH_MS: String(FRESH_FOR_TESTS) }),
        );
        expect(viaEngine.code, viaEngine.stderr).toBe(2);
        const engineReport = JSON.parse(viaEngine.stdout);
        expect(engineReport.readBy).toEqual({ engine: true, why: "asked for (--engine)" });
        const comparable = ({ durationMs: _d, readBy: _r, ...rest }: Record<string, unknown>) => rest;
        expect(comparable(report)).toEqual(comparable(engineReport));
        // `irv review --refresh`: the same refresh, then a preview of the program, which puts the
        // edited values back and creates the deleted resources again.
        const reviewFrom = ctx.server.requests.length;
        const review = await runReview({ stack: t.stack, refresh: true });
        expect(ctx.server.requests.length - reviewFrom).toBeLessThanOrEqual(4 * KINDS + work.deleted.length + accessLists);
        const actions = Object.fromEntries(review.changes.map((c) => [c.name, c.action]));
        for (const e of work.edits) expect(actions[e.name], e.name).toBe("update");
        for (const d of work.deleted) expect(actions[d], d).toBe("create");

        const from = ctx.server.requests.length;
        await t.stack.refresh();
        const made = ctx.server.requests.slice(from);
        outs = await outputsByName(t);
        expectFound(outs, work, N);
        // Each kind's first read is a GET; from the second, its reads share a listing over the
        // common ancestor of their groups, widened at most twice (a squad, its team, the org);
        // a uid no listing holds (the deleted ones) is one GET, which answers NOT_FOUND.
        const isList = (r: (typeof made)[number]) => r.method === "GET" && "uidp.descendants_of" in r.query;
        const lists = made.filter(isList);
        const gets = made.filter((r) => r.method === "GET" && !isList(r));
        expect(made.length, "only reads").toBe(lists.length + gets.length);
        expect(lists.length).toBeLessThanOrEqual(3 * KINDS);
        expect(gets.filter((r) => r.status === 200).length).toBeLessThanOrEqual(KINDS);
        // (`/iam/v2beta1/<kind>/<uid>`: the uid is what follows the collection.)
        expect(
          gets
            .filter((r) => r.status === 404)
            .map((r) => r.path.split("/").slice(4).join("/"))
            .sort(),
        ).toEqual([...work.uids].sort());
        expect(made.length).toBeLessThanOrEqual(4 * KINDS + work.deleted.length);
        expect(made.length).toBeLessThan(N / 2);

        // At 20% faults of every kind, on the refresh's requests only.
        const work2 = await handWork(outs, 1, "under faults");
        proxy.chaos({ seed: 2020, rate: 0.2 });
        try {
          await t.stack.refresh();
        } finally {
          proxy.chaos(undefined);
        }
        const faults = Object.values(proxy.counts).reduce((a, b) => a + b, 0);
        expect(faults).toBeGreaterThan(0);
        expectFound(await outputsByName(t), work2, N - work.deleted.length);

        await t.stack.destroy();
      } finally {
        await t.dispose();
      }
    });
  }
});
