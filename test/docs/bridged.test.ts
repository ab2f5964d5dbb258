/**
 * docs/bridged.md, pulumi-irv beside the Terraform provider bridged into Pulumi: the facts the code
 * knows are so. Counts of resources and functions on each side (pulumi-irv's from its kinds and
 * functions; the provider's v0.4.1 from the mapping pulumi-irv's plugin keeps of it, with what it
 * does not map), and pulumi-irv's column of the three mistakes is what its check says for them.
 * (The bridged column is measured by `npm run bench -- mistakes`: it needs the bridge built.)
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../api/functions";
import { KINDS } from "../../api/kinds";
import { MISTAKES } from "../../bench/mistakes";
import { NOT_MAPPED, TERRAFORM_DATA_SOURCES, TERRAFORM_RESOURCES, TERRAFORM_VERSION } from "../../plugin/terraform/chainguard";
import { providers } from "../../provider";
import { hostContext } from "../../provider/resources";
import { repoRoot } from "../../harness/engine";

const page = readFileSync(path.join(repoRoot, "docs", "bridged.md"), "utf8");
/** The cells of the table row whose first cell is `name`. */
const row = (name: string) =>
  page
    .split("\n")
    .find((l) => l.startsWith(`| ${name} |`))!
    .split(" | ")
    .slice(1);

describe("docs/bridged.md", () => {
  it("counts each side's resources and functions as the code does", () => {
    const tfResources = Object.keys(TERRAFORM_RESOURCES).length + NOT_MAPPED.resources.length;
    const tfFunctions = Object.keys(TERRAFORM_DATA_SOURCES).length + NOT_MAPPED.dataSources.length;
    expect(row("resources")[0]).toMatch(new RegExp(`^${KINDS.length}: `));
    expect(row("resources")[1]).toMatch(new RegExp(`^${tfResources}: `));
    expect(row("functions")[0]).toMatch(new RegExp(`^${FUNCTIONS.length}: `));
    expect(row("functions")[1]).toMatch(new RegExp(`^${tfFunctions}: `));
    expect(page).toContain(`the provider v${TERRAFORM_VERSION}`);
  });

  it("gives pulumi-irv's answer to each of the three mistakes as its check gives it, at preview", async () => {
    expect(MISTAKES).toHaveLength(3);
    const parent = "0".repeat(40);
    for (const m of MISTAKES) {
      const cells = page.split("\n").find((l) => l.startsWith(`| ${m.what} |`));
      expect(cells, m.what).toBeDefined();
      const irvCell = cells!.split(" | ")[1];
      const { failures } = await providers[m.kind].check({}, m.irv(parent), hostContext());
      expect(failures?.length, m.what).toBeGreaterThan(0);
      expect(irvCell.startsWith("at preview: "), irvCell).toBe(true);
      for (const f of failures) expect(irvCell, m.what).toContain(f.reason);
    }
  });
});
