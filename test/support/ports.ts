/** Ports for tests of what a client does when nothing answers. */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A port that was free a moment ago: nothing listens there. */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
