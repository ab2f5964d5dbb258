/**
 * One lifecycle per resource kind, driven through the kind's dynamic provider exactly as the
 * engine would call it: check, create, read back, no-op diff (also across a `__provider`
 * change), in-place update with the exact updateMask the server received, replacement diff,
 * out-of-band change seen by read, delete (twice), out-of-band delete seen by read.
 */
import { expect } from "vitest";
import { dynamicProviders } from "../../provider";
import { definitionOf, type Kind } from "../../api/kinds";
import { expectNoUndefined, lastMask, path } from "./provider";
import type { TestServer } from "./server";
import type { Rec } from "../../provider/resources/spec";

/** What one kind's lifecycle needs. */
export interface LifecycleCase {
  kind: Kind;
  /** Inputs for a new resource (prerequisites created through the API). */
  inputs(): Promise<Rec>;
  /** An in-place change and the mask it must produce; absent for kinds that cannot update. */
  update?: { change(i: Rec): Rec; mask: string[] };
  /** A change that must replace, and the properties `replaces` must name. */
  replace: { change(i: Rec): Promise<Rec> | Rec; replaces: string[]; deleteBeforeReplace?: boolean };
  /** An out-of-band PATCH (body, mask) and what read must then show; absent when impossible. */
  drift?: { body: Rec; mask: string; expect(props: Rec, inputs: Rec): void };
  /** Extra checks on the create outputs. */
  created?(outs: Rec, inputs: Rec): void;
}

const OTHER_PROVIDER = "exports.handler = () => ({ create: async () => ({ id: 'x' }) }); // a newer package";

/** Runs the whole lifecycle of `c` against `ctx`'s server. */
export async function runLifecycle(ctx: TestServer, c: LifecycleCase): Promise<void> {
  const p = dynamicProviders[c.kind] as any;
  const inputs = await c.inputs();
  const withProvider = { ...inputs, __provider: "exports.handler = () => ({})" };

  // check: valid inputs pass.
  const checked = await p.check({}, withProvider);
  expect(checked.failures).toEqual([]);

  // create: full outputs, no undefined.
  const { id, outs } = await p.create(withProvider);
  expect(id).toMatch(/^[0-9a-f]{40}(\/[0-9a-f]{16})*$/);
  expect(outs.uid).toBe(id);
  if ("createTime" in definitionOf(c.kind).fields) expect(outs.createTime).toBeTruthy();
  expectNoUndefined(outs);
  c.created?.(outs, inputs);
  const live = await ctx.api.get(path(c.kind, id));
  expect(live.status).toBe(200);

  // read back: the same outputs; inputs equal the declared ones.
  const read = await p.read(id, outs);
  expect(read.id).toBe(id);
  expect(read.props).toEqual(outs);
  expectNoUndefined(read.props);
  expect((await p.diff(id, read.props, inputs)).changes).toBe(false);

  // no-op diff, also when __provider changed (a package upgrade).
  const same = await p.diff(id, { ...outs, __provider: "old" }, { ...inputs, __provider: OTHER_PROVIDER });
  expect(same).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });

  let current = outs;
  let currentInputs = inputs;
  if (c.update) {
    const news = c.update.change(inputs);
    const d = await p.diff(id, current, news);
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual([]);
    const { outs: updated } = await p.update(id, current, { ...news, __provider: OTHER_PROVIDER });
    expect(lastMask(ctx, path(c.kind, id))).toEqual([...c.update.mask].sort());
    expectNoUndefined(updated);
    expect(updated.uid).toBe(id);
    expect((await p.diff(id, updated, news)).changes).toBe(false);
    current = updated;
    currentInputs = news;
  }

  // replacement diff.
  const replaced = await p.diff(id, current, await c.replace.change(currentInputs));
  expect(replaced.changes).toBe(true);
  expect([...replaced.replaces].sort()).toEqual([...c.replace.replaces].sort());
  expect(replaced.deleteBeforeReplace).toBe(!!c.replace.deleteBeforeReplace);

  // out-of-band change: read shows it in outputs and inputs; the program's inputs now differ.
  if (c.drift) {
    const res = await ctx.api.patch(path(c.kind, id), c.drift.body, { updateMask: c.drift.mask });
    expect(res.status, res.text).toBe(200);
    const drifted = await p.read(id, current);
    expect(drifted.id).toBe(id);
    c.drift.expect(drifted.props, drifted.inputs);
    expectNoUndefined(drifted.props);
    expect((await p.diff(id, drifted.props, currentInputs)).changes).toBe(true);
    current = drifted.props;
  }

  // delete, then delete again (already gone is done); read now drops it.
  await p.delete(id, current);
  expect((await ctx.api.get(path(c.kind, id))).status).toBe(404);
  await p.delete(id, current);
  expect((await p.read(id, current)).id).toBe("");

  // out-of-band delete of a second one: read returns a blank id.
  const second = await p.create(await c.inputs());
  const del = await ctx.api.del(path(c.kind, second.id));
  expect(del.status, del.text).toBe(200);
  expect((await p.read(second.id, second.outs)).id).toBe("");
}
