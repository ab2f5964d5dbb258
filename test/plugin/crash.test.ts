import { spawn } from "node:child_process";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/engine";
import { startHostileServer } from "../support/hostile-server";
import { secret, struct } from "../support/plugin";

// A crash of the plugin (an uncaught error, an unhandled rejection) answers every call in flight,
// naming the error, and exits non-zero: the engine neither waits on an answer that cannot come nor
// sees a plugin vanish without a word. The built bundle runs as the engine runs it, with a preload
// that fails on a line on stdin.
describe("the plugin's crash", () => {
  it.each([
    ["throw", "an uncaught error", "a bug of ours (thrown)"],
    ["reject", "an unhandled rejection", "a bug of ours (rejected)"],
  ])("on %s (%s) fails the calls in flight with its message and exits non-zero", async (line, _what, message) => {
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const api = await startHostileServer(() => arrived()); // never answers
    const child = spawn(
      process.execPath,
      ["--require", path.join(__dirname, "fixtures", "crash-on-stdin.cjs"), path.join(repoRoot, "dist", "plugin", "bundle.js")],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
      const port = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(out.trim());
        });
        child.on("exit", (code) => reject(new Error(`exited with ${code} before printing its port: ${stderr}`)));
      });
      const client = new (provrpc as any).ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const call = <T>(method: string, req: unknown) =>
        new Promise<T>((resolve, reject) => client[method](req, (e: Error | null, r: T) => (e ? reject(e) : resolve(r))));
      await call("configure", new provproto.ConfigureRequest().setArgs(struct({ apiUrl: api.url, token: secret("a-token") })).setAcceptsecrets(true));
      const create = new provproto.CreateRequest()
        .setUrn("urn:pulumi:dev::p::irv:iam:Group::g")
        .setProperties(struct({ parentUid: "0123456789abcdef0123456789abcdef01234567", name: "g" }));
      const inFlight = call("create", create).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      await reached;
      child.stdin.write(`${line}\n`);
      const e = await inFlight;
      expect(e?.code).toBe(grpc.status.INTERNAL);
      expect(e?.details).toBe(`pulumi-resource-irv failed and stops: ${message}`);
      expect(await exited).toBe(1);
      expect(stderr).toContain(message);
      client.close();
    } finally {
      child.kill();
      await api.close();
    }
  });
});
