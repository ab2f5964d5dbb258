import { describe, expect, it } from "vitest";
import { cachedClient, Session } from "../../client/session";
import { readSettings } from "../../client/config";

const config = (values: Record<string, string>) => (key: string) => values[key];

describe("the client cache (client/session.ts)", () => {
  it("is one cache: the provider's client and a data source's for the same settings are the same object", () => {
    const get = config({ "irv:apiUrl": "http://127.0.0.1:9", "irv:token": "a-token" });
    const session = new Session(get);
    const provider = session.client();
    expect(cachedClient(readSettings(get))).toBe(provider);
    expect(session.client()).toBe(provider);
  });

  it("keeps a client per settings and per anonymous mode", () => {
    const one = config({ "irv:apiUrl": "http://127.0.0.1:9", "irv:token": "token-one" });
    const two = config({ "irv:apiUrl": "http://127.0.0.1:9", "irv:token": "token-two" });
    const a = cachedClient(readSettings(one));
    const b = cachedClient(readSettings(two));
    expect(b).not.toBe(a);
    expect(cachedClient(readSettings(one))).toBe(a);
    expect(cachedClient(readSettings(one), { anonymous: true })).not.toBe(a);
  });
});
