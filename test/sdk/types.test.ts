import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

describe("public SDK types", () => {
  it("compile as pinned in public-types.ts", () => {
    const file = join(__dirname, "public-types.ts");
    const config = ts.readConfigFile(join(__dirname, "../../tsconfig.json"), ts.sys.readFile).config;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, join(__dirname, "../.."));
    const program = ts.createProgram([file], { ...options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });
});
