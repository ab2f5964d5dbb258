import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { specialSigKey } from "@pulumi/pulumi/runtime";
import type { CollectionName } from "../../api";
import { KINDS, definitionOf, type Kind } from "../../api/kinds";
import { ENGINE_TIMEOUT, createStack, loadSdk, recordSteps, type TestStack } from "../support/engine";
import { path as apiPath, startTestServer, type TestServer } from "../support/server";
import { seedDeployer } from "../support/deployments";

// An absent optional input and the API's empty default for it ("", [], {}, false) are the same
// thing. For every kind, each declared with none of its optional fields: a hand edit of one
// field, then refresh and preview must name that field only, and refreshed state must hold no
// input the program did not declare (a `description: ""` would show as `- description: ""`).

const irv = loadSdk();
const GITHUB = "https://token.actions.githubusercontent.com";
const JWKS = JSON.stringify({
  keys: [{ kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0" }],
});

interface Case {
  /** Logical name. */
  name: string;
  collection: CollectionName;
  declare(org: string, role: string): Record<string, unknown>;
  /** A hand edit through the API (body and mask), and the input it changes. */
  edit?: { body: Record<string, unknown>; mask: string; field: string };
  /** Inputs the API computes when omitted, which read reports. */
  computed?: string[];
}

/** Every kind, and every identity kind, with only the required inputs. */
const CASES: Case[] = [
  { name: "group", collection: "groups", declare: (org) => ({ parentUid: org, name: "g-0" }), edit: { body: { name: "g2-0" }, mask: "name", field: "name" } },
  {
    name: "oidc-identity",
    collection: "identities",
    declare: (org) => ({ groupUid: org, name: "oidc", claimMatch: { issuer: GITHUB, subject: "repo:a/b" } }),
    edit: { body: { claimMatch: { issuer: GITHUB, subject: "repo:a/c" } }, mask: "claim_match", field: "claimMatch" },
  },
  {
    name: "static-identity",
    collection: "identities",
    declare: (org) => ({
      groupUid: org,
      name: "static",
      staticKeys: {
        issuer: "https://keys.example.com",
        subject: "s",
        issuerKeys: JWKS,
        expirationTime: new Date(Date.now() + 30 * 86400_000).toISOString().replace(/\.\d+Z$/, ".000Z"),
      },
    }),
    edit: { body: { name: "static2" }, mask: "name", field: "name" },
  },
  {
    name: "aws-identity",
    collection: "identities",
    declare: (org) => ({ groupUid: org, name: "aws", awsIdentity: { awsAccount: "123456789012", arn: "arn:aws:iam::123456789012:role/ci" } }),
    edit: { body: { name: "aws2" }, mask: "name", field: "name" },
  },
  {
    name: "service-identity",
    collection: "identities",
    declare: (org) => ({ groupUid: org, name: "svc", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }),
    edit: { body: { name: "svc2" }, mask: "name", field: "name" },
  },
  {
    name: "role",
    collection: "roles",
    declare: (org) => ({ groupUid: org, name: "r-0", capabilities: ["groups.list"] }),
    edit: { body: { capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_ROLES_LIST"] }, mask: "capabilities", field: "capabilities" },
  },
  { name: "binding", collection: "roleBindings", declare: (org, role) => ({ groupUid: org, roleUid: role }) },
  {
    name: "idp",
    collection: "identityProviders",
    declare: (org, role) => ({
      groupUid: org,
      name: "sso",
      defaultRoleUid: role,
      oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: "s3cret-for-defaults" },
    }),
    edit: { body: { name: "sso2" }, mask: "name", field: "name" },
  },
  {
    name: "accounts",
    collection: "accountAssociations",
    declare: (org) => ({ groupUid: org, name: "accounts" }),
    edit: { body: { name: "accounts2" }, mask: "name", field: "name" },
  },
  // An invite's expirationTime is computed, not an empty default: read reports it (a declared
  // one is compared with it), and diff ignores it while the program omits it.
  { name: "invite", collection: "groupInvites", declare: (org, role) => ({ groupUid: org, roleUid: role, ttl: "86400s" }), computed: ["expirationTime"] },
  // A subscription has no optional input and no update: nothing to edit by hand.
  { name: "hook", collection: "subscriptions", declare: (org) => ({ parentUid: org, sink: "https://hooks.acme.example/defaults" }) },
  {
    name: "repo",
    collection: "repos",
    declare: (org) => ({ parentUid: org, name: "defaults" }),
    edit: { body: { name: "defaults2" }, mask: "name", field: "name" },
  },
  // A tag has no update: nothing to edit by hand.
  { name: "tag", collection: "tags", declare: () => ({ repoUid: "REPO", name: "latest", digest: `sha256:${"0d".repeat(32)}` }) },
  // Only the platform's staff change a deployment: nothing to edit by hand as the organization.
  { name: "deployment", collection: "repoDeployments", declare: () => ({ repoUid: "REPO", charts: [{ repo: "oci://example.test/charts/app" }] }) },
];

/** The SDK class of `collection`'s kind, by its definition's module and class name. */
function classOf(collection: CollectionName): new (n: string, a: object) => { uid: unknown } {
  const d = definitionOf(collection as Kind);
  // The SDK's namespaces hold classes of every signature: reached by name, as the definition names them.
  // eslint-disable-next-line no-restricted-syntax -- the SDK indexed by module and class name
  return (irv as unknown as Record<string, Record<string, new (n: string, a: object) => { uid: unknown }>>)[d.module][d.className];
}

/** `v` with the state's secret envelopes (`{<sig>: ..., plaintext: "<json>"}`) opened. */
function opened(v: unknown): unknown {
  if (!v || typeof v !== "object") return v;
  // A secret in state, as the engine writes it.
  // eslint-disable-next-line no-restricted-syntax -- a secret in state is an envelope the output type does not show
  if (specialSigKey in v) return opened(JSON.parse((v as unknown as { plaintext: string }).plaintext));
  return Array.isArray(v) ? v.map(opened) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, opened(x)]));
}

/** The keys of `v` and of every object inside it, as dotted paths. */
function paths(v: unknown, at = ""): string[] {
  if (!v || typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return [];
  return Object.entries(v).flatMap(([k, x]) => (x === undefined ? [] : [`${at}${k}`, ...paths(x, `${at}${k}.`)]));
}

describe("absent optional inputs and the API's empty defaults compare equal", { timeout: ENGINE_TIMEOUT }, () => {
  let srv: TestServer;
  let t: TestStack;
  const declared = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    // The admin may create a repo's deployment (a custom role: no built-in one may).
    srv = await startTestServer({ seed: seedDeployer() });
    const org = srv.server.organization;
    t = await createStack({
      stackName: "defaults",
      server: srv.server,
      program: async () => {
        const viewer = irv.iam.getRoleOutput({ name: "viewer" }).uid;
        const resources: Record<string, { uid: unknown }> = {};
        for (const c of CASES) {
          const args = c.declare(org, "ROLE");
          if (c.collection === "roleBindings") Object.assign(args, { identityUid: resources["service-identity"].uid });
          if ("roleUid" in args) args.roleUid = viewer;
          if ("defaultRoleUid" in args) args.defaultRoleUid = viewer;
          if (args.repoUid === "REPO") args.repoUid = resources.repo.uid;
          declared.set(c.name, args);
          resources[c.name] = new (classOf(c.collection))(c.name, args);
        }
      },
    });
    await t.stack.up();
  }, ENGINE_TIMEOUT);
  afterAll(async () => {
    await t?.stack.destroy().catch(() => undefined);
    await t?.dispose();
    await srv?.close();
  });

  it("declares every kind", () => {
    expect(new Set(CASES.map((c) => c.collection))).toEqual(new Set(KINDS.map((d) => d.kind)));
  });

  it("after a hand edit, refresh and preview name only the edited field, for every kind", async () => {
    const state = await t.exportState();
    const byName = new Map((state.deployment.resources as any[]).map((r) => [String(r.urn).split("::").pop(), r]));
    for (const c of CASES) {
      if (!c.edit) continue;
      const res = await srv.api.patch(apiPath(c.collection, byName.get(c.name).id), c.edit.body, { updateMask: c.edit.mask });
      expect(res.status, `${c.name}: ${res.text}`).toBe(200);
    }

    // The engine prints each refreshed resource's changed inputs: `name updated [diff: +a~b]`.
    const refreshOut: string[] = [];
    await t.stack.refresh({ onOutput: (s) => refreshOut.push(s) });
    const refreshDiffs = new Map<string, string[]>();
    for (const [, name, diff] of refreshOut.join("").matchAll(/ (\S+) updated \([^)]*\) \[diff: ([^\]]*)\]/g))
      refreshDiffs.set(name, diff.split(/[-+~]/).filter(Boolean));
    const refreshed = await t.stack.exportStack(); // secrets decrypted, to compare their shape
    for (const c of CASES) {
      const r = (refreshed.deployment.resources as any[]).find((x) => String(x.urn).endsWith(`::${c.name}`));
      const { __provider: _, ...inputs } = r.inputs;
      // Read's inputs hold what the program declares, nothing the API only filled in.
      const allowed = new Set([...paths(declared.get(c.name)), ...(c.computed ?? [])]);
      expect(
        paths(opened(inputs)).filter((p) => !allowed.has(p)),
        c.name,
      ).toEqual([]);
      expect(refreshDiffs.get(c.name) ?? [], `${c.name} refresh diffs`).toEqual(c.edit ? [c.edit.field] : []);
    }

    const preview = recordSteps();
    const printed: string[] = [];
    await t.stack.preview({ onEvent: preview.onEvent, onOutput: (s) => printed.push(s), diff: true });
    for (const c of CASES) {
      const step = preview.steps.find((s) => s.name === c.name);
      expect(step?.op, c.name).toBe(c.edit ? "update" : "same");
    }
    const out = printed.join("");
    expect(out).not.toMatch(/- (description|defaultRoleUid|additionalScopes|singleUse|email|audiences|claims)/);
    expect(out).not.toMatch(/description: ""/);
  });
});
