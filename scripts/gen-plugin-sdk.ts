/**
 * Regenerates the plugin-backed TypeScript SDK (`pulumi-irv/plugin`, committed in plugin/sdk)
 * from the plugin's schema, with Pulumi's own TypeScript code generator (scripts/gen-sdks):
 *
 *   npm run gen:plugin-sdk            # rewrites plugin/sdk
 *   node dist/scripts/gen-plugin-sdk.js <outdir>
 *
 * Run it after any change to the schema (kinds, fields, functions, types) and commit the result;
 * test/plugin/plugin-sdk.test.ts fails while plugin/sdk differs from what this writes. The code is
 * committed so that installing the package never needs Go.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { packageSchema } from "../plugin/schema";

/** The repository root: the folder above this file (or above dist/) that holds scripts/gen-sdks. */
export const ROOT: string = (() => {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir))
    if (existsSync(path.join(dir, "scripts", "gen-sdks")) && existsSync(path.join(dir, "package.json"))) return dir;
  throw new Error("gen-plugin-sdk: cannot find the repository root (scripts/gen-sdks)");
})();

/** Where the SDK lives in the repository. */
export const SDK_DIR = path.join(ROOT, "plugin", "sdk");

/** The generator's package files that the SDK does not ship: pulumi-irv's own package.json and tsconfig build it. */
const NOT_SHIPPED = new Set(["package.json", "tsconfig.json", "README.md"]);

/**
 * The generated SDK reads its version from a package.json beside it, which does not exist inside
 * this package; pulumi-irv's own package.json holds the same version (the schema's, see
 * plugin/schema.ts VERSION), and a package can always require itself by name.
 */
const VERSION_FROM = "require('./package.json').version";
const VERSION_TO = 'require("pulumi-irv/package.json").version';

/** A 1x1 PNG: the .NET generator (run by gen-sdks with the others) embeds the logo at logoUrl. */
const LOGO = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const README = `# pulumi-irv/plugin (generated)

The TypeScript SDK of the \`irv\` resource plugin (\`pulumi-resource-irv\`), generated from the
plugin's schema by \`npm run gen:plugin-sdk\`. Do not edit these files: change the kinds or the
schema (plugin/schema.ts) and regenerate. See "Dynamic or plugin" in the package README.
`;

/**
 * Writes every SDK of the current schema (`nodejs`, `go`, `python`, `dotnet`) into `work/out`
 * through scripts/gen-sdks, with the schema beside them; returns `work/out`. The schema as served,
 * but for its logo, which the .NET generator embeds from `logoUrl` and which is read from a file.
 */
export async function generateSdks(work: string): Promise<string> {
  writeFileSync(path.join(work, "schema.json"), JSON.stringify({ ...packageSchema(), logoUrl: "logo.png" }));
  writeFileSync(path.join(work, "logo.png"), Buffer.from(LOGO, "base64"));
  const out = path.join(work, "out");
  await promisify(execFile)(path.join(ROOT, "scripts", "gen-sdks"), [path.join(work, "schema.json"), out], { maxBuffer: 16 << 20 });
  return out;
}

/** Writes the SDK of the current schema into `outDir` (replacing it). */
export async function generatePluginSdk(outDir: string = SDK_DIR): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "irv-gen-plugin-sdk-"));
  try {
    const generated = path.join(await generateSdks(work), "nodejs");
    rmSync(outDir, { recursive: true, force: true });
    cpSync(generated, outDir, { recursive: true, filter: (src) => !NOT_SHIPPED.has(path.relative(generated, src)) });
    const utilities = path.join(outDir, "utilities.ts");
    const text = readFileSync(utilities, "utf8");
    if (!text.includes(VERSION_FROM)) throw new Error(`gen-plugin-sdk: ${utilities} no longer reads ${VERSION_FROM}; update scripts/gen-plugin-sdk.ts`);
    writeFileSync(utilities, text.replace(VERSION_FROM, VERSION_TO));
    writeFileSync(path.join(outDir, "README.md"), README);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every file under `dir`, as paths relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

if (require.main === module) {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : SDK_DIR;
  generatePluginSdk(out).then(
    () => process.stdout.write(`gen-plugin-sdk: wrote ${path.relative(process.cwd(), out) || "."} (${filesUnder(out).length} files)\n`),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
