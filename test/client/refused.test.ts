/**
 * Nothing answering at the API's address (a mistyped `irv:apiUrl`) is an answer (issue 39): a
 * request is tried again a few times, each wait reported, then fails naming the address and the
 * setting, for every method (the request never left, so a create is safe to repeat and is not
 * "recovered" for minutes). Counted by the retry waits the client reports, never timed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { IrvClient, TransportError } from "../../client";
import { StaticTokenSource } from "../../client/auth";
import { REFUSED_RETRIES } from "../../client/retry";
import { contextOf, providerOf } from "../../provider/resources";
import { Session } from "../../client/session";
import { closedPort } from "../support/ports";

const GROUP = "0123456789abcdef0123456789abcdef01234567";
let url: string;
beforeAll(async () => {
  url = `http://127.0.0.1:${await closedPort()}`;
});

describe("a request nothing answers", { timeout: 60_000 }, () => {
  it.each(["GET", "POST", "PATCH", "DELETE"])("%s: tried again a few times, each wait reported, then fails naming the URL and the setting", async (method) => {
    const client = new IrvClient(url, new StaticTokenSource("t"));
    const waits: string[] = [];
    // A budget far beyond the retries: they stop by count, not by time.
    const o = { report: (m: string) => void waits.push(m), deadline: Date.now() + 600_000 };
    const call =
      method === "GET"
        ? client.get("groups", GROUP, o)
        : method === "POST"
          ? client.create("groups", GROUP, { name: "eng" }, o)
          : method === "PATCH"
            ? client.update("groups", `${GROUP}/0123456789abcdef`, { description: "x" }, ["description"], o)
            : client.delete("groups", `${GROUP}/0123456789abcdef`, o);
    const err = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).refused).toBe(true);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${method} /iam/v2beta1/groups/\\S+: nothing answers at ${url.replace(/[.:/]/g, "\\$&")} \\(ECONNREFUSED\\); check irv:apiUrl \\(IRV_API_URL\\)$`,
      ),
    );
    expect(waits).toHaveLength(REFUSED_RETRIES);
    for (const w of waits) expect(w).toMatch(new RegExp(`^${method} \\S+: ECONNREFUSED from ${url.replace(/[.:/]/g, "\\$&")}; trying again in \\d+ s`));
  });

  it("fails a create at once after those tries: no minutes of looking for what was never sent", async () => {
    const session = new Session((key) => ({ "irv:apiUrl": url, "irv:token": "t" })[key]);
    const waits: string[] = [];
    const err = await providerOf("groups")
      .create({ parentUid: GROUP, name: "eng" }, contextOf(session, { report: (m) => void waits.push(m), deadline: Date.now() + 600_000 }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((err as Error).message).toContain(`nothing answers at ${url} (ECONNREFUSED); check irv:apiUrl (IRV_API_URL)`);
    // The create's own tries, and no look-up after them.
    expect(waits).toHaveLength(REFUSED_RETRIES);
    expect(waits.every((w) => w.startsWith("POST "))).toBe(true);
  });
});
