/**
 * The platform's generated REST gateway (test/tools/cmd/gateway) in front of an irv-server's gRPC:
 * a REST client pointed at `url` talks to exactly what the platform's gateway serves.
 *
 *   const gw = await startGateway(ctx.server);        // gw.url: http://127.0.0.1:<port>
 *   const api = apiFor(gw.url, ctx.server.token);
 *   await gw.close();
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { goTool } from "./tools";

/** A running gateway. */
export interface Gateway {
  /** Its REST base URL. */
  url: string;
  close(): Promise<void>;
}

/** Starts the gateway in front of `server`'s gRPC (served on the same address as its REST). */
export async function startGateway(server: { url: string }): Promise<Gateway> {
  const child = spawn(goTool("gateway"), ["-grpc", new URL(server.url).host], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`gateway exited (${code}) before it listened: ${stderr}`)));
    child.once("error", reject);
  });
  const { url } = JSON.parse(firstLine) as { url: string };
  return {
    url,
    async close() {
      // Closing its stdin stops it (and would, were this process to die first).
      child.stdin.end();
      await exited;
    },
  };
}
