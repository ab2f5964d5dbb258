/**
 * `npm run gen:docs`: rewrites the reference pages under docs/ (docs/resources, docs/functions, the
 * reference list in docs/_index.md) from the resource plugin's schema, the names in
 * docs/from-terraform.md from the Terraform mapping's table (plugin/terraform), and
 * docs/api-coverage.md from the platform's services and the kinds' proto facts (api/grpc, api/kinds). Run it after any
 * change to the kinds, the functions, the schema or that table, and commit the result;
 * test/docs/docs.test.ts fails while the committed pages are stale. No network, no build tools: it
 * takes a fraction of a second.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { packageSchema } from "../plugin/schema";
import { COVERAGE_PAGE, coveragePage } from "./docs/coverage";
import { GENERATED_DIRS, INDEX, generateDocs } from "./docs/generate";
import { TERRAFORM_PAGE, withTerraformNames } from "./docs/terraform";
import type { PackageSchema } from "./docs/schema";
import { ROOT } from "./gen-plugin-sdk";

/** Where the docs live in the repository. */
export const DOCS_DIR = path.join(ROOT, "docs");

/** The generated files as they should be now, by path under docs/. */
export function currentDocs(): Map<string, string> {
  // The plugin writes its schema untyped; PackageSchema is what the pages read of it.
  // eslint-disable-next-line no-restricted-syntax -- the schema is built as JSON; PackageSchema is the shape the docs read of it
  const files = generateDocs(packageSchema() as unknown as PackageSchema, readFileSync(path.join(DOCS_DIR, INDEX), "utf8"));
  files.set(TERRAFORM_PAGE, withTerraformNames(readFileSync(path.join(DOCS_DIR, TERRAFORM_PAGE), "utf8")));
  files.set(COVERAGE_PAGE, coveragePage());
  return files;
}

/** The files now in the generated folders, by path under docs/. */
export function committedPages(): string[] {
  return GENERATED_DIRS.flatMap((dir) => {
    try {
      return readdirSync(path.join(DOCS_DIR, dir)).map((f) => `${dir}/${f}`);
    } catch {
      return [];
    }
  }).sort();
}

if (require.main === module) {
  const files = currentDocs();
  for (const stale of committedPages()) if (!files.has(stale)) rmSync(path.join(DOCS_DIR, stale));
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(DOCS_DIR, file)), { recursive: true });
    writeFileSync(path.join(DOCS_DIR, file), text);
  }
  console.log(`Wrote ${files.size} files under ${DOCS_DIR}`);
}
