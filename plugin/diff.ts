/** What the plugin's Diff and preview answer: the detailed diff the engine shows, and the outputs a preview shows. */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { outputNames, type KINDS } from "../api/kinds";
import { UNKNOWN } from "../provider/resources";
import type { Rec } from "../provider/resources/spec";

/** Detailed diff entries: replaced fields as replacements, others as adds, deletes or updates. */
export function detailedDiff(olds: Rec, news: Rec, changed: string[], replaces: string[]) {
  const out = new Map<string, provproto.PropertyDiff>();
  for (const name of changed) {
    const replace = replaces.includes(name);
    const K = provproto.PropertyDiff.Kind;
    const kind =
      olds[name] === undefined
        ? replace
          ? K.ADD_REPLACE
          : K.ADD
        : news[name] === undefined
          ? replace
            ? K.DELETE_REPLACE
            : K.DELETE
          : replace
            ? K.UPDATE_REPLACE
            : K.UPDATE;
    out.set(name, new provproto.PropertyDiff().setKind(kind).setInputdiff(true));
  }
  for (const name of replaces)
    if (!out.has(name)) out.set(name, new provproto.PropertyDiff().setKind(provproto.PropertyDiff.Kind.UPDATE_REPLACE).setInputdiff(true));
  return out;
}

/**
 * The outputs a preview shows: the kind's old outputs (none of another provider's members: a
 * stack moved from the dynamic classes holds theirs), the inputs, every output the API computes unknown.
 */
export function previewOutputs(k: (typeof KINDS)[number], olds: Rec, news: Rec, keepUid: boolean): Rec {
  const out: Rec = {
    ...Object.fromEntries(
      outputNames(k.kind)
        .filter((n) => n in olds)
        .map((n) => [n, olds[n]]),
    ),
    ...news,
  };
  for (const [name, f] of Object.entries(k.fields)) if (!f.input && !f.writeOnly) out[name] = UNKNOWN;
  out.uid = keepUid && olds.uid ? olds.uid : UNKNOWN;
  return out;
}
