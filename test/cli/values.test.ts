import { describe, expect, it } from "vitest";
import { SECRET, KNOWN_AFTER_APPLY, SECRET_FIELD_NAMES, UNKNOWN, diffFields, flatten } from "../../cli/engine/values";
import { displayNameOfType } from "../../cli/engine/steps";

// How engine values are shown: secrets as the engine serializes them in events, secret field
// names, unknowns, nested paths. (The e2e tests check the same through real engine events.)
const engineSecret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" };

describe("engine values", () => {
  it("masks secrets by state and by field name, and names unknowns", () => {
    const shown = flatten({
      description: "d",
      oidc: { clientId: "irv", clientSecret: "plain-text-in-inputs" },
      token: "also-plain",
      label: engineSecret,
      claimMatch: { subject: UNKNOWN, claims: { repo: "acme/infra" } },
      capabilities: ["repo.list", "tag.create"],
    });
    expect(Object.fromEntries(shown)).toEqual({
      description: "d",
      "oidc.clientId": "irv",
      "oidc.clientSecret": SECRET,
      token: SECRET,
      label: SECRET,
      "claimMatch.subject": KNOWN_AFTER_APPLY,
      "claimMatch.claims.repo": "acme/infra",
      capabilities: ["repo.list", "tag.create"],
    });
  });

  it("masks by name the kinds' secret fields and members, the secret settings and generic names", () => {
    // Derived from the definitions (api/kinds) and the settings (client/config): nothing here is written twice.
    expect([...SECRET_FIELD_NAMES].sort()).toEqual(["clientSecret", "code", "identityToken", "password", "secret", "token"]);
  });

  it("diffs field by field, skipping internal fields and treating absent like empty", () => {
    const before = { __provider: "x", updateTime: "1", description: "", name: "a-0", claimMatch: { subject: "s1" }, code: "c1" };
    const after = { __provider: "y", updateTime: "2", name: "b-0", claimMatch: { subject: "s2" }, code: "c2" };
    expect(diffFields(before, after)).toEqual([
      { path: "claimMatch.subject", before: "s1", after: "s2" },
      { path: "name", before: "a-0", after: "b-0" },
    ]);
  });

  it("names kinds as the SDK does", () => {
    expect(displayNameOfType("pulumi-nodejs:dynamic/irv:RoleBinding")).toBe("iam.RoleBinding");
    // The plugin's type token of a kind gets the same label as its dynamic class.
    expect(displayNameOfType("irv:iam:RoleBinding")).toBe("iam.RoleBinding");
    expect(displayNameOfType("pulumi-nodejs:dynamic:Resource")).toBe("dynamic resource");
    expect(displayNameOfType("aws:s3/bucket:Bucket")).toBe("aws.s3.Bucket");
  });
});
