/**
 * The reference docs: the committed pages under docs/ are exactly what `npm run gen:docs` writes
 * from the current schema, and every example on them is one the provider would accept, so the
 * pages can go neither stale nor wrong while the kinds and the schema change.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../api/functions";
import { KINDS } from "../../api/kinds";
import { packageSchema, tokenOf } from "../../plugin/schema";
import { providers } from "../../provider";
import { hostContext } from "../../provider/resources";
import { FUNCTION_EXAMPLES, RESOURCE_EXAMPLES } from "../../scripts/docs/examples";
import { withStandIns } from "../../scripts/docs/programs";
import { objectIssues, type PackageSchema } from "../../scripts/docs/schema";
import { DOCS_DIR, committedPages, currentDocs } from "../../scripts/gen-docs";

// The plugin writes its schema untyped; PackageSchema is what the pages read of it.
// eslint-disable-next-line no-restricted-syntax -- the schema is built as JSON; PackageSchema is the shape the docs read of it
const schema = packageSchema() as unknown as PackageSchema;

describe("docs/, the reference pages", () => {
  it("are what `npm run gen:docs` writes from the current schema (regenerate and commit if not)", () => {
    const fresh = currentDocs();
    expect(committedPages()).toEqual([...fresh.keys()].filter((f) => f.includes("/")).sort());
    for (const [file, text] of fresh) expect(readFileSync(path.join(DOCS_DIR, file), "utf8"), file).toBe(text);
  });

  it("have one page per resource and function of the schema, each with an example", () => {
    const pages = committedPages();
    expect(Object.keys(RESOURCE_EXAMPLES).sort()).toEqual(Object.keys(schema.resources).sort());
    expect(Object.keys(FUNCTION_EXAMPLES).sort()).toEqual(Object.keys(schema.functions).sort());
    expect(pages).toHaveLength(Object.keys(schema.resources).length + Object.keys(schema.functions).length);
    const group = readFileSync(path.join(DOCS_DIR, "resources", "irv_iam_Group.md"), "utf8");
    expect(group).toContain("pulumi import irv:iam:Group engineering <uid>");
    expect(group).toMatch(/\| `parentUid` \| string \| \*\*Required\*\*\. \*\*Forces replacement\*\*\./);
    expect(readFileSync(path.join(DOCS_DIR, "resources", "irv_iam_GroupInvite.md"), "utf8")).toMatch(/\| `code` \| string \| \*\*Secret\*\*\./);
  });

  describe("every resource example's inputs", () => {
    for (const [token, example] of Object.entries(RESOURCE_EXAMPLES)) {
      const inputs = withStandIns(example.inputs) as Record<string, unknown>;

      it(`${token}: have the schema's required inputs, known properties and types`, () => {
        const r = schema.resources[token];
        expect(objectIssues(schema, { properties: r.inputProperties, required: r.requiredInputs }, inputs, "")).toEqual([]);
      });

      it(`${token}: pass the provider's check (preview)`, async () => {
        const kind = KINDS.find((k) => tokenOf(k) === token)!;
        const { failures } = await providers[kind.kind].check({}, inputs, hostContext());
        expect(failures ?? []).toEqual([]);
      });
    }

    it("are checked for real: a wrong one fails both", async () => {
      const r = schema.resources["irv:iam:Role"];
      const wrong = { groupUid: "not a uid", name: "releaser", capabilities: ["tag.frobnicate"], colour: "red" };
      // The schema leaves an enum's set open (check names the property and its values, not the YAML host).
      expect(objectIssues(schema, { properties: r.inputProperties, required: r.requiredInputs }, wrong, "")).toEqual(["colour: is not a property"]);
      expect(objectIssues(schema, { properties: r.inputProperties, required: r.requiredInputs }, { ...wrong, capabilities: [7] }, "")).toEqual([
        "capabilities[0]: must be a string",
        "colour: is not a property",
      ]);
      const { failures } = await providers.roles.check({}, wrong, hostContext());
      expect(failures?.map((f) => f.property).sort()).toEqual(["capabilities", "colour", "groupUid"]);
    });
  });

  describe("every function example's arguments", () => {
    for (const [token, example] of Object.entries(FUNCTION_EXAMPLES)) {
      it(`${token}: are the function's arguments, of their types`, () => {
        const args = withStandIns(example.args);
        expect(objectIssues(schema, schema.functions[token].inputs ?? {}, args, "")).toEqual([]);
        const f = FUNCTIONS.find((x) => x.token === token)!;
        expect(f.args.safeParse(args).error?.issues ?? []).toEqual([]);
        expect(Object.keys(schema.functions[token].outputs.properties ?? {})).toContain(example.show);
      });
    }
  });
});

describe("every page of the docs", () => {
  it("links only to files that exist", () => {
    const root = path.join(__dirname, "..", "..");
    const pages = [
      "README.md",
      "CONTRIBUTING.md",
      "BENCHMARKS.md",
      "server/README.md",
      ...readdirSync(DOCS_DIR, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".md"))
        .map((f) => path.join("docs", f)),
    ];
    const broken: string[] = [];
    for (const page of pages)
      for (const [, target] of readFileSync(path.join(root, page), "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g))
        if (!/^[a-z]+:/.test(target) && !existsSync(path.join(root, path.dirname(page), target))) broken.push(`${page} -> ${target}`);
    expect(pages.length).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
