import { describe, expect, it } from "vitest";
import { z } from "zod";
import { common, defineKind, numbered } from "../../api/kinds";
import type { ServerContext } from "../../server/context";
import { plainModel, type PlainRecord } from "../../server/model";
import { groupRecord } from "../../server/model/groups";
import { plainRoutes } from "../../server/routes/plain";
import { Collection, Store } from "../../server/store";

// A kind no definition of the package has: what irv-server serves for a new kind whose definition
// says everything (server/model/plain.ts), without a model or routes file of its own.
const webhooks = defineKind({
  kind: "webhooks",
  className: "Webhook",
  label: "webhook",
  description: "A webhook.",
  parentField: "groupUid",
  proto: { package: "irv.test.v1", service: "WebhooksService", message: "Webhook", uid: 1 },
  capability: "webhooks",
  example: { name: "audit", inputs: {} },
  fields: {
    groupUid: common.groupUid("The group."),
    name: common.name("The name.", 2),
    description: numbered.description(3),
    // Its proto name differs from the field's: the wire carries `url`.
    target: { type: "string", description: "Where to post.", input: true, proto: { number: 4, name: "url", type: "string" }, schema: z.url(), read: z.string() },
    enabled: { type: "boolean", description: "Whether it posts.", proto: { number: 5, type: "bool", behavior: ["OUTPUT_ONLY"] }, read: z.boolean().default(true) },
    createTime: numbered.createTime(6),
    updateTime: numbered.updateTime(7),
  },
});

const GROUP = "0123456789abcdef0123456789abcdef01234567";

function world() {
  const store = new Store();
  store.groups.insert(groupRecord({ uid: GROUP, name: "org", description: "", createTime: "", updateTime: "" }));
  let now = Date.parse("2026-01-01T00:00:00Z");
  const ctx = { store, clock: () => now } as unknown as ServerContext;
  const items = new Collection<PlainRecord>();
  return { ctx, items, model: plainModel(webhooks, () => items), tick: () => (now += 1000) };
}

/** The API error a call throws: its code and message. */
function errorOf(f: () => unknown): { code: number; message: string } {
  try {
    f();
  } catch (e) {
    const s = (e as { status: { code: number; message: string } }).status;
    return { code: s.code, message: s.message };
  }
  throw new Error("no error");
}

describe("a kind whose definition says everything (server/model/plain)", () => {
  it("creates an item under its group: inputs by wire name, omitted inputs and read fields at their defaults", () => {
    const { ctx, items, model } = world();
    const r = model.create(ctx, GROUP, { name: "audit", url: "https://hooks.example/a" });
    expect(r).toEqual({
      uid: expect.stringMatching(new RegExp(`^${GROUP}/[0-9a-f]{16}$`)),
      name: "audit",
      description: "",
      url: "https://hooks.example/a",
      enabled: true,
      createTime: "2026-01-01T00:00:00.000Z",
      updateTime: "2026-01-01T00:00:00.000Z",
    });
    expect(items.get(r.uid)).toEqual(r);
  });

  it("refuses a bad body naming the field and a missing group; discards a member the definition lacks", () => {
    const { ctx, model } = world();
    expect(errorOf(() => model.create(ctx, GROUP, { name: "audit", url: "not a url" })).message).toMatch(/^Invalid argument: url: /);
    // As the platform's gateway discards unknown members (DiscardUnknown), at any depth.
    const made = model.create(ctx, GROUP, { name: "audit", url: "https://h.example", colour: "red" });
    expect(made).toMatchObject({ name: "audit", url: "https://h.example" });
    expect(made).not.toHaveProperty("colour");
    expect(errorOf(() => model.create(ctx, `${GROUP}/00000000000000aa`, { name: "audit", url: "https://h.example" })).code).toBe(5);
  });

  it("updates as a PATCH does: present fields without a mask, exactly the masked ones with one; no change keeps updateTime", () => {
    const { ctx, model, tick } = world();
    const r = model.create(ctx, GROUP, { name: "audit", description: "d", url: "https://hooks.example/a" });
    tick();
    const same = model.update(ctx, r.uid, { name: "audit" }, undefined);
    expect(same).toBe(r);
    const moved = model.update(ctx, r.uid, { url: "https://hooks.example/b", name: "ignored" }, ["url"]);
    expect(moved).toMatchObject({ name: "audit", description: "d", url: "https://hooks.example/b", updateTime: "2026-01-01T00:00:01.000Z", createTime: r.createTime });
    const cleared = model.update(ctx, r.uid, {}, ["description"]);
    expect(cleared.description).toBe("");
    expect(errorOf(() => model.update(ctx, r.uid, {}, ["url"])).message).toMatch(/^Invalid argument: url: /);
    expect([...model.maskPaths].sort()).toEqual(["description", "name", "url"]);
  });

  it("deletes, and answers NOT_FOUND naming the kind for what is gone", () => {
    const { ctx, items, model } = world();
    const r = model.create(ctx, GROUP, { name: "audit", url: "https://hooks.example/a" });
    model.remove(ctx, r.uid);
    expect(items.has(r.uid)).toBe(false);
    expect(errorOf(() => model.remove(ctx, r.uid))).toEqual({ code: 5, message: `Not found: webhook ${r.uid} does not exist` });
    expect(errorOf(() => model.update(ctx, r.uid, {}, undefined)).code).toBe(5);
  });

  it("is listed by uid or any scalar field it returns, filtered by name, governed by its group", () => {
    const routes = plainRoutes(webhooks);
    expect({ label: routes.label, capability: routes.capability }).toEqual({ label: "webhook", capability: "webhooks" });
    expect(Object.keys(routes.list.sortable).sort()).toEqual(["createTime", "description", "enabled", "name", "uid", "updateTime", "url"]);
    expect(Object.keys(routes.list.filters)).toEqual(["name"]);
    expect(routes.groupOf(`${GROUP}/0000000000000001`)).toBe(GROUP);
  });
});
