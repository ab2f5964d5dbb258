/**
 * A mistyped `irv:apiUrl` through the engine (issue 39): nothing listens there, which is an
 * answer. `pulumi preview` of a YAML program that looks a role up, and `pulumi up` of one that
 * creates groups, fail with the error that names the URL and the setting, once per failing call,
 * after a few tries the resource's status line shows ("trying again"), where they used to wait out
 * two and five minutes. Nothing else reports the mistake but the YAML host's own echo of a failed
 * `fn::invoke` (`Error registering variable [owner]: no diagnostics`), and nothing is "cancelled".
 * Bounded by a hang guard only: the assertions are on the messages, not on time.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yamlProject, type YamlProject } from "../support/yaml-project";
import { closedPort } from "../support/ports";

const ORG = "0123456789abcdef0123456789abcdef01234567";

/** What a failing `pulumi` run printed (run() puts both streams in its error). */
const failure = (p: Promise<unknown>) =>
  p.then(
    (out) => `it passed:\n${String(out)}`,
    (e: Error) => e.message,
  );

describe("a mistyped irv:apiUrl, through the engine and the YAML host", { timeout: 240_000 }, () => {
  let p: YamlProject;
  let url: string;
  beforeAll(async () => {
    url = `http://127.0.0.1:${await closedPort()}`;
    p = await yamlProject("wrong-url", { url, token: "t" });
  });
  afterAll(() => p?.dispose());
  /** The one message for the one mistake. */
  let said: string;
  beforeAll(() => {
    said = `nothing answers at ${url} (ECONNREFUSED); check irv:apiUrl (IRV_API_URL)`;
  });

  it("fails a preview that looks a role up with the error naming the URL and the setting, reported once", async () => {
    p.write(`  eng:\n    type: irv:iam:Group\n    properties: { parentUid: "${ORG}", name: engineering, description: "\${owner}" }\n`);
    // The variable goes before the resources (`write` writes the header, then the resources).
    const file = path.join(p.dir, "Pulumi.yaml");
    const variables = `variables:\n  owner:\n    fn::invoke: { function: irv:iam:getRole, arguments: { name: owner }, return: uid }\n`;
    writeFileSync(file, readFileSync(file, "utf8").replace(/^resources:/m, `${variables}resources:`));
    const out = await failure(p.pulumi("preview"));
    const diagnostics = out.slice(out.indexOf("Diagnostics:"));
    expect(diagnostics.split(said).length - 1, out).toBe(1);
    expect(diagnostics).toContain('irv:iam:getRole(name: "owner"): GET /iam/v2beta1/roles: ' + said);
    // The other errors are the YAML host's echo of the same failure, with nothing to add.
    const errors = [...diagnostics.matchAll(/^ {4}error: (.*)$/gm)].map((m) => m[1]);
    expect(
      errors.filter((e) => !e.includes(said)).every((e) => /^Error registering (variable|resource) \[\w+\]: no diagnostics$/.test(e)),
      errors.join("\n"),
    ).toBe(true);
    expect(out).not.toMatch(/cancel/i);
  });

  it("fails an update's creates with that error, each after a few visible tries, and nothing cancelled", async () => {
    p.write(["aaa", "bbb", "ccc"].map((n) => `  ${n}:\n    type: irv:iam:Group\n    properties: { parentUid: "${ORG}", name: ${n}-team }\n`).join(""));
    const out = await failure(p.pulumi("up", "--yes", "--skip-preview"));
    const diagnostics = out.slice(out.indexOf("Diagnostics:"));
    for (const n of ["aaa", "bbb", "ccc"]) expect(diagnostics).toContain(`irv:iam:Group (${n}):\n    error: POST /iam/v2beta1/groups/${ORG}: ${said}`);
    expect(out).toMatch(new RegExp(`POST /iam/v2beta1/groups/${ORG}: ECONNREFUSED from ${url.replace(/[.:/]/g, "\\$&")}; trying again in \\d+ s`));
    expect(out).not.toMatch(/cancel/i);
  });
});
