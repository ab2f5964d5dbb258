import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { IrvClient } from "../../client";
import { generateProgram, type GeneratedProgram, type GenerateOptions } from "./generate";
import { npmrcFor, ownPackage, packageSpec } from "./package-spec";
import { readOrg, type Progress } from "./read";
import { countsOf } from "./snapshot";
import { importFileText } from "./import-file";

export { generateProgram, type GeneratedProgram, type GeneratedFile, type RequiredSecret } from "./generate";
export { readOrg, EXPORTED, type Progress } from "./read";
export { countsOf, type OrgSnapshot } from "./snapshot";
export { packageSpec } from "./package-spec";
export { setSecretCommand } from "./files";
export { importCommand, type ImportFile, type ImportSpec } from "./import-file";

/**
 * Options for `runExport`. `irvVersion` is the `pulumi-irv` dependency spec as npm takes it
 * (`packageSpec()` turns a version, tarball or folder into one); default: `packageSpec()`'s.
 */
export interface ExportOptions extends Partial<GenerateOptions> {
  /** The API client (endpoint and credentials already resolved). */
  client: IrvClient;
  /** The uid of the group whose subtree is exported. */
  groupUid: string;
  /** The folder to write the program into (created if missing). */
  outDir: string;
  /** Progress per collection while reading. */
  progress?: Progress;
  /** Also write the `pulumi import --file` document of the same resources to this path. */
  importFile?: string;
}

/** The outcome of `irv export`. */
export interface ExportResult extends GeneratedProgram {
  outDir: string;
  /** Resources read per collection. */
  counts: Record<string, number>;
  durationMs: number;
}

/**
 * Reads the live subtree of `groupUid` and writes a TypeScript Pulumi program that adopts all of
 * it (`program.ts` exporting `program()`, `index.ts` calling it, `Pulumi.yaml`, `package.json`,
 * `tsconfig.json`, `README.md`) into `outDir`, and with `importFile` the same resources as a
 * `pulumi import --file` document.
 */
export async function runExport(opts: ExportOptions): Promise<ExportResult> {
  const started = Date.now();
  const snapshot = await readOrg(opts.client, opts.groupUid, opts.progress);
  const irvVersion = opts.irvVersion ?? packageSpec(undefined);
  const generated = generateProgram(snapshot, {
    projectName: opts.projectName,
    groupConfigKey: opts.groupConfigKey,
    irvVersion,
    pulumiVersion: opts.pulumiVersion ?? (require("@pulumi/pulumi/package.json") as { version: string }).version,
    overrides: ownPackage().overrides,
  });
  const npmrc = npmrcFor(irvVersion);
  if (npmrc) generated.files.push({ path: ".npmrc", text: npmrc });
  await mkdir(opts.outDir, { recursive: true });
  for (const f of generated.files) await writeFile(path.join(opts.outDir, f.path), f.text);
  if (opts.importFile) {
    await mkdir(path.dirname(opts.importFile), { recursive: true });
    await writeFile(opts.importFile, importFileText(generated.imports));
  }
  return { ...generated, outDir: opts.outDir, counts: countsOf(snapshot), durationMs: Date.now() - started };
}
