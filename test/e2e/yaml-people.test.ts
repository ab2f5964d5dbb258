/**
 * What a Terraform user writes, in Pulumi YAML through the resource plugin: a service principal
 * without its prefix (`INGESTER`) and capabilities in the API's spelling are taken; a wrong value
 * fails preview naming the property and what it may be (not the YAML host's "is not assignable");
 * and `irv:iam:getIdentity` finds a person, or with `allowMissing` answers `found: false` for one
 * who never signed in, while an unreachable API still fails the program.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_TIMEOUT } from "../support/engine";
import { json, startHostileServer } from "../support/hostile-server";
import { listAll, useServer } from "../support/server";
import { yamlProject, type YamlProject } from "../support/yaml-project";

describe("Terraform users' spellings and people lookups in Pulumi YAML", { timeout: ENGINE_TIMEOUT }, () => {
  const ctx = useServer({ fixtures: { people: [{ subject: "github|1001", name: "Ada" }] } });
  let p: YamlProject;
  const config = "  organization:\n    type: string\n  issuer:\n    type: string\n";
  beforeAll(async () => {
    p = await yamlProject("yaml-people", ctx.server);
    await p.pulumi("config", "set", "organization", ctx.server.organization);
    await p.pulumi("config", "set", "issuer", ctx.server.authUrl);
  });
  afterAll(() => p?.dispose());
  /** What a preview that must fail prints. */
  const failing = () =>
    p.pulumi("preview").then(
      (out) => `the preview passed:\n${out}`,
      (e: Error) => e.message,
    );

  it("takes INGESTER and CAP_ names, finds a person, and says found: false for one who never signed in", async () => {
    p.write(
      [
        "  ingester:",
        "    type: irv:iam:Identity",
        "    properties: { groupUid: '${organization}', name: ingester-sp, servicePrincipal: INGESTER }",
        "  reader:",
        "    type: irv:iam:Role",
        "    properties: { groupUid: '${organization}', name: reader, capabilities: [groups.list, CAP_IAM_ROLES_LIST] }",
        "variables:",
        "  ada:",
        "    fn::invoke:",
        "      function: irv:iam:getIdentity",
        "      arguments: { issuer: '${issuer}', subject: 'github|1001', allowMissing: true }",
        "  nobody:",
        "    fn::invoke:",
        "      function: irv:iam:getIdentity",
        "      arguments: { issuer: '${issuer}', subject: 'github|404', allowMissing: true }",
        "outputs:",
        "  adaFound: ${ada.found}",
        "  adaUid: ${ada.uid}",
        "  nobodyFound: ${nobody.found}",
        "",
      ].join("\n"),
      config,
    );
    await p.pulumi("up", "--yes", "--skip-preview");
    const out = JSON.parse(await p.pulumi("stack", "output", "--json"));
    const ada = (await ctx.api.get("/iam/v2beta1/identities:lookupIdentity", { issuer: ctx.server.authUrl, subject: "github|1001" })).body.uid;
    expect(out).toMatchObject({ adaFound: true, adaUid: ada, nobodyFound: false });
    const ids = await listAll(ctx.api, "identities", { "uidp.children_of": ctx.server.organization, name: "ingester-sp" });
    expect(ids.map((i) => i.servicePrincipal)).toEqual(["SERVICE_PRINCIPAL_INGESTER"]);
    const roles = await listAll(ctx.api, "roles", { name: "reader" });
    expect(roles.map((r) => r.capabilities)).toEqual([["CAP_IAM_GROUPS_LIST", "CAP_IAM_ROLES_LIST"]]);
    // Either spelling is the value the API holds: nothing to change.
    expect((await p.previewJson("--expect-no-changes")).changeSummary).toEqual({ same: 3 });
  });

  it("fails preview on a wrong service principal or capability, naming the property and its values", async () => {
    // One resource at a time: the engine stops at the first resource check refuses.
    const wrong = [
      ["    type: irv:iam:Identity", "    properties: { groupUid: '${organization}', name: ingester-sp, servicePrincipal: Ingestor }"],
      ["    type: irv:iam:Role", "    properties: { groupUid: '${organization}', name: reader, capabilities: [groups.list, group.create] }"],
    ];
    const says = [
      /property servicePrincipal value \{Ingestor\} has a problem: servicePrincipal: is not a service principal: one of COSIGNED, INGESTER, .*with or without the SERVICE_PRINCIPAL_ prefix \(did you mean "INGESTER"\?\)/,
      /property capabilities value .* has a problem: capabilities\.1: is not a known capability \(did you mean "groups\.create"\?\)/,
    ];
    for (const [i, lines] of wrong.entries()) {
      p.write(["  bad:", ...lines, ""].join("\n"), config);
      const said = await failing();
      expect(said).not.toMatch(/is not assignable/);
      expect(said).toMatch(says[i]);
    }
  });

  it('fails the program when the API answers anything but "nobody", allowMissing or not', async () => {
    p.write(
      [
        "  {}",
        "variables:",
        "  nobody:",
        "    fn::invoke:",
        "      function: irv:iam:getIdentity",
        "      arguments: { issuer: '${issuer}', subject: 'github|404', allowMissing: true }",
        "outputs:",
        "  nobodyFound: ${nobody.found}",
        "",
      ].join("\n"),
      config,
    );
    // A broken API (an internal error, not retried) is no "nobody".
    const broken = await startHostileServer((_req, res) => json(res, { code: 13, message: "Internal: the database is down", details: [] }, 500));
    await p.pulumi("config", "set", "irv:apiUrl", broken.url);
    try {
      const said = await failing();
      expect(said).toMatch(/irv:iam:getIdentity\(.*\).*the database is down/s);
      expect(broken.requests.some((r) => r.startsWith("/iam/v1/identities/lookup?"))).toBe(true);
    } finally {
      await p.pulumi("config", "set", "irv:apiUrl", ctx.server.url);
      await broken.close();
    }
  });
});
