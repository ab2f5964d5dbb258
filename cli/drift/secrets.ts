import type { StackContents } from "../stack";
import { definitionOfDisplayName, secretNames, type KindDefinition } from "../../api/kinds";
import { sameIn } from "../../provider/resources/diff";
import { clientOfContents } from "../access/load";
import { SECRET, openedSecret } from "../engine/values";
import type { DriftedResource } from "./report";

/**
 * Names the changed members of a secret block. The engine masks a secret output whole (an
 * identity provider's `oidc`, which holds the client secret), so a drift in its `clientId` shows
 * as `oidc: [secret] -> [secret]`. Here the recorded block (from the stack's state, decrypted in
 * memory) is compared member by member with the live resource read through the API with the
 * stack's current settings, and the drift becomes `oidc.clientId: [secret] -> [secret]`: the
 * member is named, its values are not. Write-only members (the client secret, per the kind's
 * definition) are not compared.
 * Any failure leaves the report as it was.
 */
export async function nameSecretMembers(resources: DriftedResource[], contents: StackContents): Promise<void> {
  const { state } = contents;
  const masked = resources.filter((r) => r.status === "changed" && r.fields.some((f) => isWholeSecret(r, f.path)));
  if (masked.length === 0) return;
  try {
    const client = clientOfContents(contents);
    if (!client) return;
    const recorded = new Map(
      ((state.deployment?.resources ?? []) as { urn: string; outputs?: Record<string, unknown> }[]).map((r) => [r.urn, r.outputs ?? {}]),
    );
    for (const r of masked) {
      const kind = definitionOfDisplayName(r.kind)!;
      const live: Record<string, unknown> = { ...(await client.get(kind.kind, r.uid)) };
      const old = recorded.get(r.urn) ?? {};
      r.fields = r.fields.flatMap((f) => {
        if (!isWholeSecret(r, f.path)) return [f];
        const before = openedSecret(old[f.path]) as Record<string, unknown> | undefined;
        const after = (live[f.path] ?? {}) as Record<string, unknown>;
        const members = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].sort();
        const writeOnly = (kind as KindDefinition).fields[f.path]?.writeOnlyMembers ?? [];
        const changed = members.filter((m) => !writeOnly.includes(m) && !sameIn(kind as KindDefinition, f.path, { [m]: before?.[m] }, { [m]: after[m] }));
        return changed.length ? changed.map((m) => ({ path: `${f.path}.${m}`, recorded: SECRET, live: SECRET })) : [f];
      });
    }
  } catch {
    // The coarse report stands: the block changed, which member is not known.
  }
}

/** True when `path` is a whole block the SDK marks secret (`oidc`), reported masked. */
function isWholeSecret(r: DriftedResource, path: string): boolean {
  const d = definitionOfDisplayName(r.kind);
  return d ? secretNames(d).includes(path) : false;
}
