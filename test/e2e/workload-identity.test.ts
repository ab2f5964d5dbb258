import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT, createStack, loadExample, loadSdk, type TestStack } from "../support/engine";
import { startOidcIssuer, type OidcIssuer } from "../support/oidc-issuer";
import { listAll, path, useServer } from "../support/server";
import { STS_EXCHANGE_PATH } from "../../api";

type CiIdentityExample = typeof import("../../examples/ci-identity");

const SUBJECT = "repo:acme/infra:ref:refs/heads/main";

// Scenario 6: the ci-identity example declares an identity that trusts a throwaway OIDC issuer and
// binds it to viewer; a second stack holding no API token, only the issuer's OIDC token, reads
// through the exchange and is refused writes.
describe("workload identity through the engine", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer({ allowPrivateIssuers: true });
  let issuer: OidcIssuer;
  let admin: TestStack;
  let job: TestStack | undefined;
  beforeAll(async () => {
    issuer = await startOidcIssuer();
  });
  afterAll(async () => {
    await job?.dispose();
    await admin?.stack.destroy();
    await admin?.dispose();
    await issuer?.close();
  });

  it("lets a CI job read with an exchanged OIDC token but not write", async () => {
    const org = ctx.server.organization;
    const { program, jobProgram } = loadExample<CiIdentityExample>("ci-identity");
    admin = await createStack({
      stackName: "ci-admin",
      server: ctx.server,
      program: () => program({ groupUid: org, issuer: issuer.url, subject: SUBJECT, audience: ctx.server.url }),
    });
    const identityUid: string = (await admin.stack.up()).outputs.identityUid.value;

    const oidcToken = await issuer.sign({ sub: SUBJECT, aud: ctx.server.url });
    const irv = loadSdk();
    let write = false;
    job = await createStack({
      stackName: "ci-job",
      server: { url: ctx.server.url, authUrl: ctx.server.authUrl, token: "" },
      identity: { uid: identityUid, token: oidcToken },
      program: async () => {
        const outputs = await jobProgram({ groupUid: org });
        if (write) new irv.iam.Group("intruder", { parentUid: org, name: "intruder" });
        return outputs;
      },
    });

    const from = ctx.server.requests.length;
    const read = await job.stack.up();
    const sent = ctx.server.requests.slice(from);
    expect(sent.some((r) => r.path.endsWith(STS_EXCHANGE_PATH) && r.status === 200)).toBe(true);
    const reads = sent.filter((r) => r.method === "GET" && !r.path.endsWith(STS_EXCHANGE_PATH));
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(JSON.stringify(r.caller)).toContain(identityUid);
    // What the job read is what the platform holds (asked as the admin, after counting the
    // job's requests): the group's name and its repositories.
    const group = await ctx.api.get(path("groups", org));
    expect(group.status, group.text).toBe(200);
    expect(read.outputs.groupName.value).toBe(group.body.name);
    const repoNames = (await listAll(ctx.api, "repos", { "uidp.descendants_of": org })).map((r) => r.name as string).sort();
    expect(repoNames.length, "the sample org holds repositories").toBeGreaterThan(0);
    expect(read.outputs.repoNames.value).toEqual(repoNames);

    write = true;
    const writeFrom = ctx.server.requests.length;
    await expect(job.stack.up()).rejects.toThrow(/PERMISSION_DENIED|permission denied/i);
    // The create was sent as the identity and refused; nothing was made.
    const writes = ctx.server.requests.slice(writeFrom).filter((r) => r.method === "POST" && !r.path.endsWith(STS_EXCHANGE_PATH));
    expect(writes.length).toBeGreaterThan(0);
    for (const r of writes) {
      expect(r.status).toBe(403);
      expect(JSON.stringify(r.caller)).toContain(identityUid);
    }
    const intruders = (await listAll(ctx.api, "groups", { "uidp.children_of": org })).filter((g) => g.name === "intruder");
    expect(intruders).toEqual([]);

    const state = JSON.stringify(await job.exportState());
    expect(state).not.toContain(oidcToken);
  });
});
