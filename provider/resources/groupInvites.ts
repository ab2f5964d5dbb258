import { lifetimeIssues, livesFor, ttlOf } from "../../api/kinds/groupInvites";
import { parentOf } from "../../api/uid";
import { changesOf } from "./diff";
import { findCreated } from "./create";
import type { Operation } from "./context";
import { type Inputs, type Outputs, type KindSpec } from "./spec";
import { factsOf } from "./facts";
import { UNKNOWN } from "./values";
import { NotFoundError, TransportError } from "../../client/errors";

/** Inputs of a GroupInvite, as its definition (api/kinds) types them. */
export type GroupInviteInputs = Inputs<"groupInvites">;
/** Outputs of a GroupInvite: the inputs as they are live, and the API's fields. */
export type GroupInviteOutputs = Outputs<"groupInvites">;

const spec = (): KindSpec<"groupInvites"> => {
  const facts = factsOf("groupInvites");
  const made: KindSpec<"groupInvites"> = {
    ...facts,
    /** The ttl is input only: a read with no prior state (an import) declares the one the invite was made with. */
    outputs: (item, prior) => {
      const out = facts.outputs(item, prior);
      // `out.ttl` is the prior's too, or nothing: the API never returns one.
      return { ...out, ttl: prior.ttl ?? ttlOf(item) ?? out.ttl };
    },
    validate(i, creating, olds) {
      // Only an invite about to be created must expire in the future: one that has since expired
      // must not break every later preview. Any change to an invite's inputs replaces it, so
      // changed inputs mean a create too.
      if (!creating && changesOf(made, olds, i).changed.length === 0) return [];
      return lifetimeIssues(i, (v) => v !== UNKNOWN);
    },
    /** An imported invite has no ttl in state: a program's ttl matches if the invite lives exactly that long. */
    liveConfirms: (name, olds, news) => name === "ttl" && typeof news.ttl === "string" && livesFor(olds, news.ttl),
    /**
     * A found invite is useless without its code, which only a create returns: delete it, and let
     * the caller create a fresh one (itself recovered the same way), so there is exactly one
     * invite, with its code in state. The delete is idempotent: NOT_FOUND on its retry (its first
     * response lost) means done. If it cannot get through before the deadline, the error names the
     * invite left behind.
     */
    async recover(ctx, i, since) {
      const mine = (v: { uid: string; roleUid: string; email: string; singleUse: boolean }) =>
        parentOf(v.uid) === i.groupUid && v.roleUid === i.roleUid && v.email === (i.email ?? "") && v.singleUse === (i.singleUse ?? false);
      for (;;) {
        const orphan = await findCreated(ctx, "groupInvites", { "uidp.children_of": i.groupUid }, mine, since);
        if (!orphan) return undefined;
        await deleteOrphan(ctx, orphan.uid);
      }
    },
  };
  return made;
};

/** Deletes an invite whose code was lost; already gone counts as deleted. */
async function deleteOrphan(ctx: Operation, uid: string): Promise<void> {
  try {
    await ctx.client().delete("groupInvites", uid, ctx.call);
  } catch (e) {
    if (e instanceof NotFoundError) return;
    if (e instanceof TransportError) throw e;
    throw new Error(
      `group invite ${uid} was created but its response (and code) was lost, and deleting it failed; delete it by hand: ${(e as Error).message}`,
      { cause: e },
    );
  }
}

/** The kind's spec, made on each call (./index.ts `specs` makes it once, on first use). */
export const groupInviteSpec = spec;
