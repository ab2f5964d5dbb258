import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { COLLECTION_NAMES } from "../../api/collections";
import { COLLECTIONS } from "../../api/collections";
import {
  KINDS,
  createBodyOf,
  definitionOfDisplayName,
  definitionOfTypeToken,
  displayNameOf,
  dynamicTokenOf,
  inputNames,
  outputNames,
  replaceNames,
  tokenOf,
  wireNameOf,
  type KindDefinition,
} from "../../api/kinds";
import { MODULES } from "../../api/modules";
import { SHAPES } from "../../client/shapes";
import { specs } from "../../provider/resources";

/** The keys of a zod object schema, looking through refinements and pipes. */
function keysOf(schema: z.ZodType): string[] {
  // zod's wrappers keep the object they wrap under different names: walked untyped.
  // eslint-disable-next-line no-restricted-syntax -- walks zod internals no public type describes
  let s = schema as unknown as { shape?: object; def?: { in?: unknown; schema?: unknown; innerType?: unknown } };
  for (let i = 0; i < 5 && !s.shape; i++) s = s.def?.in ?? s.def?.schema ?? s.def?.innerType ?? s;
  return Object.keys(s.shape ?? {});
}

describe("the kind definitions (api/kinds)", () => {
  it("refer only to collections the API has", () => {
    const refs = KINDS.flatMap((d) => Object.values(d.fields as Record<string, { refersTo?: string }>).flatMap((f) => (f.refersTo ? [f.refersTo] : [])));
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(COLLECTION_NAMES).toContain(r);
  });

  it("name only fields the API has: every read-back field is in the response shape, every input but the parent and the parts in the create body", () => {
    for (const d of KINDS) {
      const shape = keysOf(SHAPES[d.kind] as z.ZodType);
      const body = keysOf(createBodyOf(d));
      expect(shape.length, d.kind).toBeGreaterThan(0);
      expect(body.length, d.kind).toBeGreaterThan(0);
      for (const [name, f] of Object.entries(d.fields)) {
        const wire = wireNameOf(name, f);
        if (name === d.parentField) continue;
        // A part (a repo's README) is kept apart: in neither the item nor its bodies.
        if (f.part) {
          expect([shape.includes(wire), body.includes(wire)], `${d.kind}.${name}`).toEqual([false, false]);
          continue;
        }
        // A field read where the item carries it (a binding's identityUid at identity.uid) is not a member of its own.
        if (!f.writeOnly && !f.readAt) expect(shape, `${d.kind}.${name}`).toContain(wire);
        if (f.input) expect(body, `${d.kind}.${name}`).toContain(wire);
      }
    }
  });

  it("are what each provider spec diffs and the SDK exposes", () => {
    for (const d of KINDS) {
      expect(Object.keys(specs[d.kind].fields), d.kind).toEqual(inputNames(d));
      expect(specs[d.kind].parentField, d.kind).toBe(d.parentField);
      expect(outputNames(d.kind).at(-1)).toBe("adoptUid");
    }
  });

  it("each name a module whose proto package and REST paths they live in, and class names unique across modules", () => {
    const classes = KINDS.map((d) => d.className);
    expect(new Set(classes).size).toBe(classes.length);
    for (const d of KINDS) {
      expect(MODULES, d.kind).toContain(d.module);
      // chainguard.platform.<module>.<version>: the module is the platform's area of the package.
      expect(d.proto.package.split(".").slice(0, 3), d.kind).toEqual(["chainguard", "platform", d.module]);
      // A singleton (a repo's deployment, registry v1 only) lives below its owners' v1 collection.
      const expected = "singleton" in d ? `/${d.module}/v1/repos` : `/${d.module}/${d.proto.package.split(".")[3]}/${d.kind}`;
      expect(COLLECTIONS[d.kind].path, d.kind).toBe(expected);
    }
  });

  it("give each kind its type tokens and display name by module, each resolving back to the kind", () => {
    for (const d of KINDS) {
      expect(tokenOf(d)).toBe(`irv:${d.module}:${d.className}`);
      expect(displayNameOf(d)).toBe(`${d.module}.${d.className}`);
      expect(definitionOfTypeToken(tokenOf(d))?.kind).toBe(d.kind);
      expect(definitionOfTypeToken(dynamicTokenOf(d))?.kind).toBe(d.kind);
      expect(definitionOfDisplayName(displayNameOf(d))?.kind).toBe(d.kind);
    }
    // The IAM kinds' tokens predate modules: a stack made before keeps them, so nothing is replaced.
    expect(KINDS.filter((d) => d.module === "iam").map(dynamicTokenOf)).toEqual(
      KINDS.filter((d) => d.module === "iam").map((d) => `pulumi-nodejs:dynamic/irv:${d.className}`),
    );
  });

  it("say a service without Update exactly when every input replaces", () => {
    for (const d of KINDS as readonly KindDefinition[]) {
      const inputs = inputNames(d);
      expect(
        inputs.every((n) => replaceNames(d).includes(n)),
        d.kind,
      ).toBe(!!d.proto.noUpdate);
    }
  });
});
