/**
 * The Go test tools (test/tools/cmd/*), built once per machine by scripts/ensure-test-tools.
 *
 *   const bin = goTool("conformance");   // absolute path of the built executable
 *
 * A machine without Go fails loudly here: the tests that need a tool cannot stand in for it.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

const repoRoot = path.resolve(__dirname, "..", "..");
let binDir: string | undefined;

/** The path of the test tool `name` (its folder under test/tools/cmd), building the tools if needed. */
export function goTool(name: string): string {
  binDir ??= execFileSync(path.join(repoRoot, "scripts", "ensure-test-tools"), {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return path.join(binDir, name);
}
