/** What one kind's provider is made of: its fields and the mapping between inputs, wire and outputs. */
import type { z } from "zod";
import type { CollectionName } from "../../api/collections";
import type { FieldDefinition } from "../../api/kinds";
import type { CallOptions, IrvClient } from "../../client/client";
import type { Item } from "../../client/shapes";

/** Inputs every resource takes besides its own fields. */
export type CommonInputs = {
  /** Adopt the existing resource with this uid instead of creating one (checked to exist and match). */
  adoptUid?: string;
};

/** The options of a provider method's calls: its deadline (ms since the epoch), who hears its waits, what cancels them. */
export type Call = Pick<CallOptions, "report" | "signal"> & { deadline: number };

/** How one declared input behaves in diff and update: the facts of its definition that say so, and its name on the wire. */
export type FieldSpec = Pick<FieldDefinition, "replace" | "default" | "block" | "computedWhenOmitted" | "computedMembers" | "codec"> & {
  wire: string;
  /** For a part kept apart from the item (a repo's README): where it is, and its request rule, which the create body lacks. */
  part?: NonNullable<FieldDefinition["part"]> & { schema: z.ZodType };
};

/** A zod-style issue on input names. */
export interface Issue {
  path: PropertyKey[];
  message: string;
}

/** A record of inputs, outputs or bodies. */
export type Rec = Record<string, unknown>;

/** What makes one kind: its collection, its fields and the mapping between inputs, wire and outputs. */
export interface KindSpec<C extends CollectionName> {
  collection: C;
  /** "group", "identity", ... for messages. */
  label: string;
  /** The input naming the parent (`parentUid` or `groupUid`). */
  parentField: string;
  /** Every declared input except adoptUid. */
  fields: Record<string, FieldSpec>;
  /** The create body (strict, derived from the definition), run by check. */
  createSchema: z.ZodType;
  /**
   * Dotted paths of required inputs the API never returns (`oidc.clientSecret`): a resource read
   * by an import has none, so check accepts them missing unless the resource is being created.
   */
  writeOnlyInputs?: string[];
  /**
   * True when write-only input `name`, which state lacks (an imported resource), is nonetheless
   * confirmed by the live values in `olds` (an invite's ttl by its expiration less its creation).
   */
  liveConfirms?(name: string, olds: Rec, news: Rec): boolean;
  /** Extra checks on inputs (e.g. an invite's expiration in the future when creating). */
  validate?(inputs: Rec, creating: boolean, olds: Rec): Issue[];
  /** The create body from inputs. */
  createBody(inputs: Rec): Rec;
  /** The update body for `mask` (wire paths): the new values of the fields the mask touches. */
  updateBody?(inputs: Rec, mask: string[]): Rec;
  /** Outputs from an API item; `prior` (inputs or old outputs) supplies write-only values. */
  outputs(item: Item<C>, prior: Rec): Rec;
  /** The parent of an item (`factsOf` gives the uid's parent, or the kind's own rule). */
  parentOf(item: Item<C>): string;
  /** Why an existing item cannot be adopted for these inputs, or undefined. */
  adoptMismatch?(item: Item<C>, inputs: Rec): string | undefined;
  /** Mask paths to send on adoption whatever the diff says (write-only values). */
  adoptAlwaysMask?(inputs: Rec): string[];
  /** Extra replaces beyond `replace` fields (an identity's kind). */
  extraReplaces?(olds: Rec, news: Rec): string[];
  /**
   * After a create lost its response: the resource that create made, if it exists. Returning
   * undefined means "create again". Created at or after `since` (ms), and not among `existing`
   * (what `existing` found). A request it makes that loses its response throws TransportError
   * (the caller looks again); its calls go with `call`.
   */
  recover(client: IrvClient, inputs: Rec, since: number, call: Call, existing?: ReadonlySet<string>): Promise<Item<C> | undefined>;
  /**
   * For a kind whose items carry no creation time (a subscription), which `since` cannot tell
   * apart: the uids of the items like the inputs' that are there before the first create, which
   * a recovery must never take for the one it made (one List, before the create is sent).
   */
  existing?(client: IrvClient, inputs: Rec, call: Call): Promise<ReadonlySet<string>>;
  /**
   * What a refused delete says the resource still holds (compared between attempts), or undefined
   * for any other error. `counted` when the API said it in a detail that shrinks as the contents
   * go; otherwise `what` is only its message, which may stay the same however much is deleted.
   */
  heldBy?(err: unknown): { what: string; counted: boolean } | undefined;
  /** A plain-words error for a failed delete, or undefined to keep the API's. */
  deleteError?(err: unknown, props: Rec): Error | undefined;
  /** A plain-words error for a failed create (a repo's deployment that exists: import it), or undefined to keep the API's. */
  createError?(err: unknown, inputs: Rec): Error | undefined;
  /** A plain-words error for a failed update, or undefined to keep the API's. */
  updateError?(err: unknown, id: string): Error | undefined;
  /** Whether a live item counts as gone (a repo's deployment with no charts, as the Terraform provider reads it). */
  gone?(item: Item<C>): boolean;
  /** Called after a successful create (groups record themselves for propagation waits). */
  created?(item: Item<C>): void;
}
