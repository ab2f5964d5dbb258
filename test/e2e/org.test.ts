import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadExample, recordSteps, type TestStack } from "../support/engine";
import { listAll, useServer } from "../support/server";
import type { CollectionName } from "../../api";

type OrgExample = typeof import("../../examples/org");

/** The resources examples/org declares, by logical name. */
const ORG_RESOURCES = [
  "engineering",
  "platform",
  "security",
  "releaser",
  "release-ci",
  "auditor",
  "release-ci-releaser",
  "auditor-viewer",
  "sso",
  "security-invite",
].sort();
/** Passed in plain (not as a secret) on purpose: the SDK must still keep it out of the state. */
const CLIENT_SECRET = "org-e2e-client-secret-4f1d";
const LISTED: CollectionName[] = ["groups", "identities", "roles", "roleBindings", "identityProviders", "groupInvites"];

// Scenarios 1 (plan, create, no-op), 7 (secrets in state) and 9 (destroy restores the server) on
// one stack of the org example, so the org is created once.
describe("org example through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer();
  let t: TestStack;
  let before: string;

  /** Everything the server holds under the organization, as comparable text. */
  async function snapshot(): Promise<string> {
    const org = ctx.server.organization;
    const all: Record<string, unknown[]> = {};
    for (const c of LISTED) all[c] = await listAll(ctx.api, c, { "uidp.descendants_of": org });
    return JSON.stringify(all, null, 1);
  }

  beforeAll(async () => {
    const { program } = loadExample<OrgExample>("org");
    before = await snapshot();
    t = await createStack({
      stackName: "org",
      server: ctx.server,
      program: () => program({ organization: ctx.server.organization, oidcClientSecret: CLIENT_SECRET }),
    });
  });
  afterAll(async () => t?.dispose());

  let inviteCode = "";
  /** Everything the engine printed: it must not show a secret either. */
  const printed: string[] = [];
  const onOutput = (line: string) => printed.push(line);

  it("previews every create, creates them all, then previews no change", async () => {
    const planned = recordSteps();
    const preview = await t.stack.preview({ onEvent: planned.onEvent, onOutput });
    expect(planned.steps.map((s) => s.name).sort()).toEqual(ORG_RESOURCES);
    expect(new Set(planned.steps.map((s) => s.op))).toEqual(new Set(["create"]));
    expect(preview.changeSummary.create).toBe(ORG_RESOURCES.length + 1); // and the stack
    // A preview creates nothing on the server.
    expect(ctx.server.requests.filter((r) => r.method !== "GET")).toEqual([]);

    const up = await t.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: ORG_RESOURCES.length + 1 });
    const posts = ctx.server.requests.filter((r) => r.method === "POST" && r.status < 300);
    expect(posts.length).toBe(ORG_RESOURCES.length);
    const out = up.outputs;
    expect(out.platformUid.value.startsWith(`${out.engineeringUid.value}/`)).toBe(true);
    expect(out.builtinRoles.value).toEqual(expect.arrayContaining(["viewer", "owner"]));
    expect(out.repoCount.value).toBeGreaterThan(0); // from the server's sample fixtures
    expect(out.opensslAdvisoryCount.value).toBeGreaterThan(0);
    expect(out.inviteCode.secret).toBe(true);
    inviteCode = out.inviteCode.value;
    expect(inviteCode).toMatch(/\S{6,}/);

    const again = await t.stack.preview({ expectNoChanges: true });
    expect(again.changeSummary).toEqual({ same: ORG_RESOURCES.length + 1 });
  });

  it("keeps the token, client secret and invite code out of the state and the engine's output", async () => {
    const state = JSON.stringify(await t.exportState());
    const output = printed.join("");
    expect(output).toContain("release-ci"); // the engine did print the plan
    for (const secret of [ctx.server.token, CLIENT_SECRET, inviteCode]) expect(output).not.toContain(secret);
    expect(state).toContain("release-ci"); // the org is in it
    expect(state).toContain("4dabf18193072939515e22adb298388d"); // pulumi's secret marker
    for (const secret of [ctx.server.token, CLIENT_SECRET, inviteCode]) expect(state).not.toContain(secret);

    // A refresh rewrites every resource's inputs and outputs from what read returns (which keeps
    // the write-only client secret and the create-only code from the old state): still no plaintext.
    const refresh = await t.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: ORG_RESOURCES.length + 1 });
    const refreshed = JSON.stringify(await t.exportState());
    for (const secret of [ctx.server.token, CLIENT_SECRET, inviteCode]) {
      expect(refreshed).not.toContain(secret);
      expect(printed.join("")).not.toContain(secret);
    }
  });

  it("destroys everything it made, leaving the server as it was", async () => {
    const gone = recordSteps();
    const result = await t.stack.destroy({ onEvent: gone.onEvent });
    expect(result.summary.resourceChanges).toEqual({ delete: ORG_RESOURCES.length + 1 });
    expect(gone.steps.map((s) => s.name).sort()).toEqual(ORG_RESOURCES);
    expect(await snapshot()).toBe(before);
  });
});
