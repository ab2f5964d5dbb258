/**
 * `irv drift` after `pulumi up` of a program written in a user's order (issue 39): capabilities
 * unsorted and repeated, claims, client ids, service bindings and GitHub app installations as
 * maps in odd key order, scopes unsorted, a static key rewritten unchanged (it takes one audience), an installation's members in odd order,
 * on every kind, through the resource plugin and the dynamic classes. Right after the update
 * both `irv drift` (its own reads, cli/drift/direct.ts) and `irv drift --engine` (the engine's
 * refresh) say in sync; after edits by hand, some of which only reorder what is a set, both report
 * exactly the same fields, and only the real changes. Which values are sets is derived from the
 * kinds' definitions once (api/kinds/order.ts) and used by the provider's diff and drift alike.
 */
import * as nodePath from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { builtinRoleUid } from "../../server";
import { createStack, ENGINE_TIMEOUT, loadSdk, PluginResource, pulumiEnv, usePluginFrom } from "../support/engine";
import { runIrv } from "../support/cli";
import { JWKS } from "../support/every-kind";
import { path, useServer } from "../support/server";
import type { CollectionName } from "../../api/collections";

type Declare = (className: string, name: string, args: Record<string, pulumi.Input<unknown>>) => { uid: pulumi.Output<string> };

const AZURE = { zeta: "7c9e6679-7425-40de-944b-e07fc1f90ae7", alpha: "3f2b6a4c-8d1e-4f5a-9b7c-0e1d2c3b4a59" };

/** One resource of every kind, each set and map in an order no API sorts it in. */
function program(org: string, declare: Declare): PulumiFn {
  const viewer = builtinRoleUid("viewer");
  const expirationTime = new Date(Date.now() + 20 * 86400_000).toISOString().replace(/\.\d+Z$/, ".000Z");
  return async () => {
    const team = declare("Group", "team", { parentUid: org, name: "team", description: "the team" });
    const role = declare("Role", "role", { groupUid: team.uid, name: "releaser", capabilities: ["tag.list", "repo.list", "tag.create", "repo.list"] });
    const ci = declare("Identity", "ci", {
      groupUid: team.uid,
      name: "ci-main",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/app:ref:refs/heads/main",
        claims: { repository_owner: "acme", environment: "prod" },
        claimPatterns: { workflow_ref: "^acme/app/.*$", actor: "^bot-[a-z]+$" },
      },
    });
    declare("Identity", "keys", {
      groupUid: team.uid,
      name: "keys",
      staticKeys: { issuer: "https://keys.example.com", subject: "signer", issuerKeys: JWKS, expirationTime, audiences: ["alpha"] },
    });
    declare("Identity", "aws", {
      groupUid: team.uid,
      name: "aws",
      awsIdentity: { awsAccount: "123456789012", arnPattern: "^arn:aws:iam::123456789012:role/runner-.*$" },
    });
    declare("Identity", "syncer", { groupUid: team.uid, name: "syncer", servicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER" });
    declare("RoleBinding", "ci-releaser", { groupUid: team.uid, identityUid: ci.uid, roleUid: role.uid });
    declare("IdentityProvider", "sso", {
      groupUid: team.uid,
      name: "sso",
      defaultRoleUid: viewer,
      oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: "s3cret", additionalScopes: ["profile", "email", "groups"] },
    });
    declare("AccountAssociation", "accounts", {
      groupUid: team.uid,
      name: "accounts",
      azure: { tenantId: "0f2b6a4c-8d1e-4f5a-9b7c-0e1d2c3b4a59", clientIds: AZURE },
      chainguard: { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: team.uid, SERVICE_PRINCIPAL_CATALOG_SYNCER: team.uid } },
      github: {
        appInstallations: {
          "99": {
            installations: [
              { name: "zeta", installationId: "7" },
              { installationId: "3", name: "alpha" },
            ],
          },
          "1234": { installations: [{ installationId: "42", name: "acme" }] },
        },
      },
    });
    declare("GroupInvite", "invite", { groupUid: team.uid, roleUid: viewer, ttl: "86400s", email: "new@acme.example" });
  };
}

const dynamicDeclare: Declare = (className, name, args) => {
  const iam = loadSdk().iam as unknown as Record<string, new (n: string, a: object) => { uid: pulumi.Output<string> }>;
  return new iam[className](name, args);
};
const pluginDeclare: Declare = (className, name, args) => new PluginResource(className, name, args);

describe("irv drift on a program written in a user's order", () => {
  const ctx = useServer();

  for (const [side, declare] of [
    ["the resource plugin", pluginDeclare],
    ["the dynamic classes", dynamicDeclare],
  ] as const) {
    it(`${side}: in sync right after up, and the same real changes only, read directly and by the engine`, { timeout: 3 * ENGINE_TIMEOUT }, async () => {
      const stackName = side.includes("plugin") ? "orders-plugin" : "orders-dynamic";
      const t = await createStack({ stackName, program: program(ctx.server.organization, declare), server: ctx.server });
      try {
        if (side.includes("plugin")) await usePluginFrom(t);
        await t.stack.up();
        const env = pulumiEnv(nodePath.join(nodePath.dirname(t.workDir), "home"));
        const drift = async (...extra: string[]) => {
          const r = await runIrv(["drift", "--stack", stackName, "--cwd", t.workDir, "--format", "json", ...extra], env);
          expect([0, 2], r.stderr).toContain(r.code);
          const { durationMs: _d, readBy, ...rest } = JSON.parse(r.stdout);
          return { code: r.code, readBy, report: rest };
        };

        const direct = await drift();
        expect(direct.readBy).toEqual({ engine: false });
        expect(direct.report.resources).toEqual([]);
        expect(direct.code).toBe(0);
        const engine = await drift("--engine");
        expect(engine.code).toBe(0);
        expect(engine.report).toEqual(direct.report);

        // By hand: sets reordered (no change), and one real change in each order-free field.
        const outs = new Map(
          (((await t.stack.exportStack()).deployment.resources ?? []) as { urn: string; custom?: boolean; outputs?: Record<string, any> }[])
            .filter((r) => r.custom)
            .map((r) => [r.urn.split("::").pop()!, r.outputs ?? {}]),
        );
        const patch = async (c: CollectionName, name: string, body: object, mask: string) => {
          const res = await ctx.api.patch(path(c, outs.get(name)!.uid), body, { updateMask: mask });
          expect(res.status, res.text).toBe(200);
        };
        const team = outs.get("team")!.uid;
        await patch("roles", "role", { capabilities: ["CAP_TAG_CREATE", "CAP_REPO_LIST"] }, "capabilities");
        await patch(
          "identities",
          "keys",
          {
            staticKeys: {
              issuer: "https://keys.example.com",
              subject: "signer",
              issuerKeys: JWKS,
              expirationTime: outs.get("keys")!.staticKeys.expirationTime,
              audiences: ["alpha"],
            },
          },
          "static_keys",
        );
        await patch(
          "identities",
          "ci",
          {
            claimMatch: {
              issuer: "https://token.actions.githubusercontent.com",
              subject: "repo:acme/app:ref:refs/heads/main",
              claims: { environment: "prod", repository_owner: "acme" },
              claimPatterns: { actor: "^bot-[a-z]+$", workflow_ref: "^acme/app/release.*$" },
            },
          },
          "claim_match",
        );
        await patch("identityProviders", "sso", { oidc: { additionalScopes: ["groups", "email", "offline_access"] } }, "oidc.additional_scopes");
        await patch(
          "accountAssociations",
          "accounts",
          {
            chainguard: { serviceBindings: { SERVICE_PRINCIPAL_CATALOG_SYNCER: team, SERVICE_PRINCIPAL_INGESTER: team } },
            github: {
              appInstallations: {
                "1234": { installations: [{ name: "acme", installationId: "42" }] },
                "99": {
                  installations: [
                    { installationId: "3", name: "alpha" },
                    { installationId: "7", name: "zeta" },
                  ],
                },
              },
            },
          },
          "chainguard,github",
        );

        const after = await drift();
        expect(after.code).toBe(2);
        const afterEngine = await drift("--engine");
        expect(afterEngine.code).toBe(2);
        expect(afterEngine.report).toEqual(after.report);
        const changed = Object.fromEntries(
          after.report.resources.map((r: { name: string; fields: { path: string }[] }) => [r.name, r.fields.map((f) => f.path)]),
        );
        // The dynamic classes keep the whole `oidc` block secret: irv names the member that changed.
        expect(changed).toEqual({
          role: ["capabilities"],
          ci: ["claimMatch.claimPatterns.workflow_ref"],
          sso: ["oidc.additionalScopes"],
        });
        expect(after.report.resources.find((r: { name: string }) => r.name === "role").fields[0]).toMatchObject({
          recorded: ["repo.list", "tag.create", "tag.list"],
          live: ["repo.list", "tag.create"],
        });
      } finally {
        await t.dispose();
      }
    });
  }
});
