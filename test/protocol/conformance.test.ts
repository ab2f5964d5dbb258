import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KINDS, eventGroupOf, type ChangeAction, type KindDefinition } from "../../api/kinds";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { defaultAudience } from "../support/sts";
import { useServer } from "../support/server";
import { goTool } from "../support/tools";

/** One line of the conformance tool's output. */
interface Check {
  check: string;
  ok: boolean;
  error?: string;
}

/** Every check the tool makes; a check that went missing fails as surely as one that failed. */
const CHECKS = [
  ...["not_found", "invalid_argument", "unauthenticated"].map((c) => `errors.${c}`),
  ...[
    "create",
    "get",
    "create.children",
    "list.children_of",
    "list.descendants_of",
    "list.name",
    "list.order_by",
    "list.pages",
    "list.skip",
    "update.mask",
    "update.star",
    "delete",
  ].map((c) => `groups.${c}`),
  ...[
    "create.ci",
    "create.signer",
    "create.runner",
    "create.syncer",
    "list.relationship_type",
    "list.pages",
    "update.mask",
    "update.claim_match",
    "update.star",
    "delete.signer",
    "delete.runner",
    "delete.syncer",
  ].map((c) => `identities.${c}`),
  ...["list.builtin", "create", "update.capabilities", "list.children_of"].map((c) => `roles.${c}`),
  ...["create", "list.identity", "update.role_uid", "delete"].map((c) => `role_bindings.${c}`),
  ...["create", "update.oidc.client_id", "update.oidc.client_secret", "update.default_role", "delete"].map((c) => `identity_providers.${c}`),
  ...["create", "update.google", "list", "delete"].map((c) => `account_associations.${c}`),
  ...["create", "create.without_ttl", "list", "delete"].map((c) => `group_invites.${c}`),
  ...["create", "create.http", "list", "delete", "v1.create", "v1.list", "v1.delete"].map((c) => `subscriptions.${c}`),
  ...["setup", "grpc", "http1", "lookup", "capabilities", "refused", "cleanup"].map((c) => `exchange.${c}`),
  "roles.delete",
  "identities.delete.ci",
  "groups.delete.tree",
  ...["repos.list", "repos.get", "tags.list", "tags.get", "advisories.list", "advisories.get"],
];

// The platform's own generated gRPC clients (chainguard.dev/sdk, test/tools/cmd/conformance)
// against irv-server: every IAM kind's create, get, list, update with masks and delete; events
// subscriptions through the v2beta1 client and the v1 one the Terraform provider uses; repo, tag
// and advisory reads; the token exchange through the SDK's exchanger, over gRPC and HTTP/1.
describe("the platform's gRPC clients against irv-server", () => {
  const ctx = useServer({ allowPrivateIssuers: true });
  let issuer: OidcIssuer;
  let tool: string;
  beforeAll(async () => {
    tool = goTool("conformance");
    issuer = await startOidcIssuer();
  });
  afterAll(() => issuer?.close());

  it("passes every check", async () => {
    const idToken = await issuer.sign({ sub: "repo:acme/conformance:ref:refs/heads/main", aud: defaultAudience(ctx.server) });
    const args = ["-api", ctx.server.url, "-auth", ctx.server.authUrl, "-org", ctx.server.organization, "-id-token", idToken];
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(tool, args, { env: { ...process.env, IRV_TOKEN: ctx.server.token } }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    const results: Check[] = stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    // Each failure with what differed, in one assertion that prints them all.
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.map((r) => r.check)).toEqual(CHECKS);
    expect(code, stderr).toBe(0);
  });
});

/**
 * The event type of a v1 method as its `.proto` text names it (registry v1's UpdateTag: a package
 * the Go tools cannot link), or undefined.
 */
function v1EventType(protoFile: string, method: string): string | undefined {
  const modcache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  const text = readFileSync(path.join(modcache, "chainguard.dev", "sdk@v0.1.212", protoFile), "utf8");
  const at = text.indexOf(`rpc ${method}(`);
  if (at < 0) return undefined;
  const next = text.indexOf("\n  rpc ", at + 1);
  return /type:\s*"([^"]+)"/.exec(text.slice(at, next < 0 ? undefined : next))?.[1];
}

/** Events a kind has only through a v1 method, where v2beta1 has none: the v1 proto that names each. */
const V1_ONLY_EVENTS: Record<string, string> = { "tags updated": "proto/platform/registry/v1/registry.platform.proto" };

// The event types the kinds' definitions record, and the group each event names, are the
// platform's: each kind's Create, Update and Delete, as the SDK's descriptors carry their
// chainguard.annotations.events option, and as its messages answer CloudEventsExtension("group")
// (or, for a method only v1 has, as its v1 .proto names it).
describe("the kinds' events", () => {
  it("are the types and groups the platform's protos and SDK name for each kind's methods", () => {
    const lines = execFileSync(goTool("conformance"), ["-event-types"], { encoding: "utf8" }).trim().split("\n");
    const named = new Map(
      lines.map((l) => JSON.parse(l) as { service: string; method: string; type: string; group: string }).map((t) => [`${t.service}/${t.method}`, t]),
    );
    // The item the tool asks about: two groups below its organization.
    const uid = "4e9a7c1b2d3f5e6a7b8c9d0e1f2a3b4c5d6e7f80/a1b2c3d4e5f60718/8e9fa0b1c2d3e4f5";
    const rule = (g: string) => (g === uid ? "self" : g === uid.slice(0, uid.lastIndexOf("/")) ? "parent" : g === uid.split("/")[0] ? "root" : g);
    const METHOD: Record<ChangeAction, string> = { created: "Create", updated: "Update", deleted: "Delete" };
    for (const d of KINDS as readonly KindDefinition[])
      for (const [action, verb] of Object.entries(METHOD) as [ChangeAction, string][]) {
        const platform = named.get(`${d.proto.package}.${d.proto.service}/${verb}${d.proto.message}`);
        const v1 = V1_ONLY_EVENTS[`${d.kind} ${action}`];
        if (v1) {
          expect(platform, `${d.kind} ${action}: v2beta1 has it`).toBeUndefined();
          expect(d.events?.[action], `${d.kind} ${action}`).toBe(v1EventType(v1, `${verb}${d.proto.message}`));
          continue;
        }
        expect(d.events?.[action], `${d.kind} ${action}`).toBe(platform?.type);
        if (platform) expect(rule(eventGroupOf(d, action, uid)), `${d.kind} ${action}: group`).toBe(platform.group);
      }
  });
});
