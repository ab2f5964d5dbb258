/**
 * Before any test file runs (vitest's globalSetup): the Pulumi CLI and every language host the
 * tests use are there, built if needed by scripts/ensure-pulumi. A host that cannot be built fails
 * the run here, naming it and why, instead of a dozen engine tests failing minutes later with the
 * engine's own errors.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

/** The language hosts the tests run programs with: folder and policy pack (nodejs), YAML, Go. */
export const REQUIRED_HOSTS = ["nodejs", "yaml", "go"];

export default async function setup(): Promise<void> {
  const script = path.join(__dirname, "..", "..", "scripts", "ensure-pulumi");
  try {
    await promisify(execFile)(script, ["--require", REQUIRED_HOSTS.join(",")], { maxBuffer: 16 << 20 });
  } catch (e) {
    const { stderr } = e as { stderr?: string };
    throw new Error(`scripts/ensure-pulumi could not provide what the tests need:\n${stderr || (e as Error).message}`);
  }
}
