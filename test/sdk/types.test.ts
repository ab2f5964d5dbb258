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

  it("tell a TypeScript user who gives an identity no relationship type which four to choose from", () => {
    const dir = join(__dirname, "../..");
    const file = join(dir, "tmp", "identity-without-type.ts");
    const source = `import * as irv from "../dynamic";\nnew irv.iam.Identity("ci", { groupUid: "g", name: "ci-0" });\n`;
    const host = ts.createCompilerHost({ strict: true, noEmit: true, skipLibCheck: true, esModuleInterop: true });
    const read = host.readFile;
    host.readFile = (f) => (f === file ? source : read(f));
    host.fileExists = ((exists) => (f: string) => f === file || exists(f))(host.fileExists);
    const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, esModuleInterop: true, types: ["node"] }, host);
    const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(messages.join("\n")).toContain("give exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal");
  });
});
