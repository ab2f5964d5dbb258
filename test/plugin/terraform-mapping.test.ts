import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSchema } from "../../plugin/schema";
import { NOT_MAPPED, TERRAFORM_DATA_SOURCES, TERRAFORM_RESOURCES } from "../../plugin/terraform/chainguard";
import { landings, terraformMapping } from "../../plugin/terraform/mapping";
import { usePlugin } from "../support/plugin";
import { goTool } from "../support/tools";
import { run } from "../support/toolchain";

// The Terraform mapping as Pulumi's converter gets it: GetMappings and GetMapping over gRPC, then
// read by test/tools/cmd/tfmapping through the Terraform bridge's own types and naming, against
// the plugin's schema and an organization of the Terraform provider (fixtures/terraform: its
// configuration, and its state as that provider writes it).

const FIXTURES = path.join(__dirname, "fixtures", "terraform");

interface Attribute {
  name: string;
  configurable: boolean;
  input: boolean;
  output: boolean;
}
interface Report {
  provider: string;
  resources: Record<string, { token: string; attributes: Record<string, Attribute> }>;
  dataSources: Record<string, { token: string; attributes: Record<string, Attribute> }>;
  problems: string[];
}

describe("the Terraform mapping", () => {
  const plugin = usePlugin();
  const mappings = (key: string) => plugin.call<provproto.GetMappingsResponse>("getMappings", new provproto.GetMappingsRequest().setKey(key));
  const mapping = (key: string, provider: string) =>
    plugin.call<provproto.GetMappingResponse>("getMapping", new provproto.GetMappingRequest().setKey(key).setProvider(provider));

  it("is offered for the chainguard Terraform provider, under the converter's key and the prototype's, and for no other key", async () => {
    expect((await mappings("terraform")).getProvidersList()).toEqual(["chainguard"]);
    expect((await mappings("tf")).getProvidersList()).toEqual(["chainguard"]);
    expect((await mappings("crossplane")).getProvidersList()).toEqual([]);
  });

  it("answers for chainguard and for no provider named, and answers nothing for another provider or key", async () => {
    for (const provider of ["chainguard", ""]) {
      const r = await mapping("terraform", provider);
      expect(r.getProvider()).toBe("chainguard");
      expect(Buffer.from(r.getData_asU8()).equals(terraformMapping())).toBe(true);
    }
    for (const [key, provider] of [
      ["terraform", "aws"],
      ["crossplane", "chainguard"],
      ["crossplane", ""],
    ]) {
      const r = await mapping(key, provider);
      expect(r.getProvider()).toBe("");
      expect(r.getData_asU8().length).toBe(0);
    }
  });

  describe("read through the Terraform bridge's types", () => {
    let dir: string;
    let report: Report;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "irv-tfmapping-"));
      const data = (await mapping("terraform", "chainguard")).getData_asU8();
      writeFileSync(path.join(dir, "chainguard.json"), data);
      writeFileSync(path.join(dir, "schema.json"), JSON.stringify(packageSchema()));
      const args = [
        "-mapping",
        "chainguard.json",
        "-schema",
        "schema.json",
        "-state",
        path.join(FIXTURES, "terraform.tfstate"),
        "-config",
        path.join(FIXTURES, "main.tf"),
      ];
      report = JSON.parse((await run(goTool("tfmapping"), args, { cwd: dir })).stdout);
    }, 15 * 60_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("finds no problem: tokens in the schema, a Terraform schema for every mapped type, the fixtures' state and configuration within it", () => {
      expect(report.problems).toEqual([]);
      expect(report.provider).toBe("chainguard");
    });

    it("maps the 11 resources and 6 data sources to the plugin's types and functions, and leaves out the rest of the provider", () => {
      expect(Object.keys(report.resources).sort()).toEqual(Object.keys(TERRAFORM_RESOURCES).sort());
      expect(Object.keys(report.dataSources).sort()).toEqual(Object.keys(TERRAFORM_DATA_SOURCES).sort());
      expect(Object.keys(report.resources)).toHaveLength(11);
      expect(Object.keys(report.dataSources)).toHaveLength(6);
      expect(report.dataSources.chainguard_versions.token).toBe("irv:registry:getVersions");
      expect(report.resources.chainguard_rolebinding.token).toBe("irv:iam:RoleBinding");
      expect(report.dataSources.chainguard_role.token).toBe("irv:iam:getRoles");
      expect(report.resources.chainguard_subscription.token).toBe("irv:events:Subscription");
      expect(report.resources.chainguard_image_repo.token).toBe("irv:registry:Repo");
      expect(report.resources.chainguard_image_tag.token).toBe("irv:registry:Tag");
      expect(report.resources.chainguard_image_repo_deployment.token).toBe("irv:registry:RepoDeployment");
      for (const r of NOT_MAPPED.resources) expect(report.resources[r]).toBeUndefined();
      for (const d of NOT_MAPPED.dataSources) expect(report.dataSources[d]).toBeUndefined();
    });

    it("gives every attribute the name the table says, an input where Terraform lets a configuration set it, an output where Terraform computes it; what does not map is in the table with why", () => {
      const expected = landings();
      const seen = new Set<string>();
      for (const l of expected) {
        const entry = (l.dataSource ? report.dataSources : report.resources)[l.type];
        const a = entry.attributes[l.path];
        expect(a, `${l.type}.${l.path}`).toBeDefined();
        seen.add(`${l.dataSource}:${l.type}.${l.path}`);
        const maps = a.configurable ? a.input : a.output;
        if (l.to !== null) expect(a.name, `${l.type}.${l.path}`).toBe(l.to.split(".").pop()!.replace("[]", ""));
        // What maps fully needs no word; what does not is in the table as (none) or with a note.
        if (!maps) expect(l.to === null || l.note !== undefined, `${l.type}.${l.path} (${a.name}) does not map and the table does not say so`).toBe(true);
        if (l.to === null) expect(maps, `${l.type}.${l.path}: the table says it does not map`).toBe(false);
      }
      // And nothing the converter sees is missing from the table.
      for (const [kind, entries] of [
        ["false", report.resources],
        ["true", report.dataSources],
      ] as const)
        for (const [type, e] of Object.entries(entries))
          for (const p of Object.keys(e.attributes)) expect(seen.has(`${kind}:${type}.${p}`), `${type}.${p}`).toBe(true);
    });

    it("maps the attributes a user writes most: parents, the identity's blocks, capabilities, a binding's uids, the identity provider's oidc and default role, an invite's role, a subscription's sink", () => {
      const name = (type: string, p: string) => report.resources[type].attributes[p].name;
      expect(name("chainguard_group", "parent_id")).toBe("parentUid");
      expect(name("chainguard_identity", "claim_match.issuer_pattern")).toBe("issuerPattern");
      expect(name("chainguard_identity", "static")).toBe("staticKeys");
      expect(name("chainguard_identity", "aws_identity.aws_arn")).toBe("arn");
      expect(name("chainguard_identity", "service_principal")).toBe("servicePrincipal");
      expect(name("chainguard_role", "capabilities")).toBe("capabilities");
      expect([name("chainguard_rolebinding", "group"), name("chainguard_rolebinding", "identity"), name("chainguard_rolebinding", "role")]).toEqual([
        "groupUid",
        "identityUid",
        "roleUid",
      ]);
      expect(name("chainguard_identity_provider", "oidc.client_secret")).toBe("clientSecret");
      expect(name("chainguard_identity_provider", "default_role")).toBe("defaultRoleUid");
      expect(name("chainguard_group_invite", "role")).toBe("roleUid");
      expect([name("chainguard_subscription", "parent_id"), name("chainguard_subscription", "sink")]).toEqual(["parentUid", "sink"]);
      expect(report.dataSources.chainguard_role.attributes["items[].id"].name).toBe("uid");
    });
  });

  it("the fixtures hold every mapped resource and data source, with the ids as the Terraform provider writes them (the association's is its group's uid)", () => {
    const state = JSON.parse(readFileSync(path.join(FIXTURES, "terraform.tfstate"), "utf8")) as {
      resources: { mode: string; type: string; name: string; instances: { attributes: Record<string, unknown> }[] }[];
    };
    const types = (mode: string) => [...new Set(state.resources.filter((r) => r.mode === mode).map((r) => r.type))].sort();
    expect(types("managed")).toEqual(Object.keys(TERRAFORM_RESOURCES).sort());
    expect(types("data")).toEqual(Object.keys(TERRAFORM_DATA_SOURCES).sort());
    const attrs = (type: string) => state.resources.find((r) => r.type === type && r.mode === "managed")!.instances[0].attributes;
    expect(attrs("chainguard_account_associations").id).toBe(attrs("chainguard_account_associations").group);
    expect(attrs("chainguard_group_invite").id).toMatch(new RegExp(`^${attrs("chainguard_group_invite").group}/[0-9a-f]{16}$`));
  });
});
