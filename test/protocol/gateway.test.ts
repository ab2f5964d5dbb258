import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadSdk, recordSteps } from "../support/engine";
import { BY_FILE, makeEveryKind } from "../support/every-kind";
import { startGateway, type Gateway } from "../support/gateway";
import { apiFor, listAll, path as apiPath, useServer, type Api } from "../support/server";
import { yamlProject } from "../support/yaml-project";

// The provider against the platform's generated REST gateway (test/tools/cmd/gateway) in front of
// irv-server's gRPC: what our client reads and writes is exactly what the platform's gateway
// serves (its marshaler's nulls, enum names, int64 strings, discarded unknown members, masks as
// sent). The token exchange stays on irv-server (authUrl). Every kind, through the resource plugin
// and the dynamic classes: create or import, update with masks, a refresh that finds a hand
// edit, delete.

describe("the provider through the platform's REST gateway", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let gw: Gateway;
  let api: Api;
  beforeAll(async () => {
    gw = await startGateway(ctx.server);
    api = apiFor(gw.url, ctx.server.token);
  });
  afterAll(() => gw?.close());
  /** What the provider is pointed at: the gateway as the API, irv-server as the issuer. */
  const endpoint = () => ({ url: gw.url, authUrl: ctx.server.authUrl, token: ctx.server.token });
  /** A resource read through the gateway. */
  const live = async (collection: Parameters<typeof apiPath>[0], uid: string) => {
    const res = await api.get(apiPath(collection, uid));
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it("the resource plugin imports every kind, previews no change, refreshes a hand edit, updates with masks and destroys", async () => {
    const p = await yamlProject("gateway", endpoint());
    try {
      const m = await makeEveryKind(api, ctx.server.organization, "gw-plugin");
      const file = path.join(p.base, "import.json");
      writeFileSync(file, JSON.stringify({ resources: BY_FILE.map(([name, type, key]) => ({ type, name, id: m[key] })) }));
      await p.pulumi("import", "--file", file, "--yes", "--protect=false", "--out", path.join(p.base, "file.yaml"));
      await p.pulumi("import", "irv:iam:AccountAssociation", "accounts", m.accounts, "--yes", "--protect=false", "--out", path.join(p.base, "accounts.yaml"));
      const code = ["file.yaml", "accounts.yaml"].map((f) => readFileSync(path.join(p.base, f), "utf8").replace(/^resources:\n/, "")).join("");
      p.write(code);
      expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 14 });

      // A hand edit through the gateway (its mask in proto names), found by refresh; up puts the
      // program's value back with a one-field mask.
      const edit = await api.patch(apiPath("groups", m.team), { description: "edited by hand" }, { updateMask: "description" });
      expect(edit.status, edit.text).toBe(200);
      await p.pulumi("refresh", "--yes", "--skip-preview");
      const refreshed = (await p.resources()).find((r) => r.urn.endsWith("::irv:iam:Group::team"));
      expect(refreshed?.outputs?.description).toBe("edited by hand");
      expect((await p.previewJson()).changeSummary).toEqual({ update: 1, same: 13 });
      await p.pulumi("up", "--yes", "--skip-preview");
      expect((await live("groups", m.team)).description).toBe("Made by hand");

      // Updates with masks of nested and top-level members, through the gateway.
      p.write(
        code
          .replace("description: GitHub Actions on main", "description: GitHub Actions")
          .replace(/(additionalScopes:\n\s+- email)\n\s+- profile/, "$1")
          .replace("subject: repo:acme/app:ref:refs/heads/main", "subject: repo:acme/app:ref:refs/heads/release"),
      );
      expect((await p.previewJson()).changeSummary).toEqual({ update: 2, same: 12 });
      await p.pulumi("up", "--yes", "--skip-preview");
      const ci = await live("identities", m.ci);
      expect(ci.description).toBe("GitHub Actions");
      expect(ci.claimMatch.subject).toBe("repo:acme/app:ref:refs/heads/release");
      expect((await live("identityProviders", m.sso)).oidc.additionalScopes).toEqual(["email"]);
      expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 14 });
      await p.pulumi("refresh", "--yes", "--skip-preview");
      expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 14 });

      await p.pulumi("destroy", "--yes", "--skip-preview");
      expect((await api.get(apiPath("groups", m.team))).status).toBe(404);
    } finally {
      p.dispose();
    }
  });

  it("the dynamic classes create every kind, update with masks, refresh a hand edit, import and delete", async () => {
    const irv = loadSdk();
    const org = ctx.server.organization;
    const viewer = (await listAll(api, "roles", { name: "viewer" })).find((r) => !r.uid.includes("/")).uid as string;
    const byHand = await api.post(apiPath("groups", org), { name: "gw-by-hand", description: "made by hand" });
    expect(byHand.status, byHand.text).toBe(200);
    const desired = { description: "first", scopes: ["email", "profile"], capabilities: ["groups.list"] as ("groups.list" | "repo.list")[], adopt: false };
    const t = await createStack({
      stackName: "gateway",
      server: endpoint(),
      program: async () => {
        const d = desired.description;
        const team = new irv.iam.Group("team", { parentUid: org, name: "gw-dynamic", description: d });
        const inTeam = { groupUid: team.uid };
        const ci = new irv.iam.Identity("ci", {
          ...inTeam,
          name: "ci-0",
          description: d,
          claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" },
        });
        new irv.iam.Identity("runner", {
          ...inTeam,
          name: "runner",
          description: d,
          awsIdentity: { awsAccount: "123456789012", arnPattern: "^arn:aws:iam::123456789012:role/runner-.*$" },
        });
        new irv.iam.Identity("syncer", { ...inTeam, name: "syncer", description: d, servicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER" });
        const role = new irv.iam.Role("deployer", { ...inTeam, name: "deployer", description: d, capabilities: desired.capabilities });
        new irv.iam.RoleBinding("ci-deployer", { ...inTeam, identityUid: ci.uid, roleUid: role.uid });
        new irv.iam.IdentityProvider("sso", {
          ...inTeam,
          name: "sso",
          description: d,
          defaultRoleUid: viewer,
          oidc: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: "gw-secret-7f3a", additionalScopes: desired.scopes },
        });
        new irv.iam.AccountAssociation("accounts", {
          ...inTeam,
          name: "accounts",
          description: d,
          amazon: { account: "123456789012" },
          google: { projectId: "acme-prod", projectNumber: "123456789" },
        });
        new irv.iam.GroupInvite("invite", { ...inTeam, roleUid: viewer, email: "new-hire@acme.example", ttl: "86400s" });
        new irv.events.Subscription("hook", { parentUid: team.uid, sink: "https://hooks.acme.example/gw" });
        // The dynamic classes adopt with adoptUid: the engine's import option is not for dynamic resources.
        if (desired.adopt) new irv.iam.Group("adopted", { parentUid: org, name: "gw-by-hand", description: "made by hand", adoptUid: byHand.body.uid });
        return { team: team.uid, ci: ci.uid, role: role.uid };
      },
    });
    try {
      const up = await t.stack.up();
      const uids = { team: up.outputs.team.value, ci: up.outputs.ci.value, role: up.outputs.role.value };
      expect((await live("groups", uids.team)).description).toBe("first");
      // On the wire, capabilities are the enum's names.
      expect((await live("roles", uids.role)).capabilities).toEqual(["CAP_IAM_GROUPS_LIST"]);

      // Updates with masks: descriptions of every kind that has one, a list member, a nested one.
      Object.assign(desired, { description: "second", scopes: ["email"], capabilities: ["groups.list", "repo.list"] });
      const planned = recordSteps();
      await t.stack.up({ onEvent: planned.onEvent });
      for (const name of ["team", "ci", "runner", "syncer", "deployer", "sso", "accounts"]) expect(planned.ops(name), name).toEqual(["update"]);
      expect((await live("identities", uids.ci)).description).toBe("second");
      expect([...(await live("roles", uids.role)).capabilities].sort()).toEqual(["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"]);

      // A hand edit through the gateway: refresh finds it, the next up reverts it.
      const edit = await api.patch(apiPath("identities", uids.ci), { description: "edited by hand" }, { updateMask: "description" });
      expect(edit.status, edit.text).toBe(200);
      const refresh = await t.stack.refresh();
      expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
      const after = recordSteps();
      await t.stack.up({ onEvent: after.onEvent });
      expect(after.ops("ci")).toEqual(["update"]);
      expect((await live("identities", uids.ci)).description).toBe("second");

      // adoptUid takes over a group made by hand, with no change to it and no new group.
      desired.adopt = true;
      const adopting = recordSteps();
      const groupsBefore = (await listAll(api, "groups", { "uidp.children_of": org })).length;
      await t.stack.up({ onEvent: adopting.onEvent });
      expect(adopting.ops("adopted")).toEqual(["create"]);
      expect((await listAll(api, "groups", { "uidp.children_of": org })).length).toBe(groupsBefore);
      const again = recordSteps();
      await t.stack.preview({ onEvent: again.onEvent });
      expect(again.ops("adopted")).toEqual(["same"]);

      await t.stack.destroy();
      for (const uid of [uids.team, byHand.body.uid]) expect((await api.get(apiPath("groups", uid))).status).toBe(404);
    } finally {
      await t.dispose();
    }
  });
});
