/**
 * What one kind's provider is made of: its fields and the mapping between inputs, wire and
 * outputs, keyed by its definition (api/kinds), whose types its hooks receive.
 */
import type { z } from "zod";
import type { DefinitionOf, FieldDefinition, InputsOf, Kind, KindDefinition, OutputsOf } from "../../api/kinds";
import type { CallOptions } from "../../client/client";
import type { Item } from "../../client/shapes";
import type { Operation } from "./context";

/** Inputs every resource takes besides its own fields. */
export type CommonInputs = {
  /** Adopt the existing resource with this uid instead of creating one (checked to exist and match). */
  adoptUid?: string;
};

/** The inputs of kind `K`: its definition's (the parent and each input, as its request rules take them), and adoptUid. */
export type Inputs<K extends Kind> = CommonInputs & InputsOf<DefinitionOf<K>>;
/** The outputs of kind `K`: the inputs as they are live, the uid, and every field the API returns. */
export type Outputs<K extends Kind> = CommonInputs & OutputsOf<DefinitionOf<K>>;
/**
 * Values not yet checked, by the names of `T`: what check and diff see (at preview a value may be
 * the unknown sentinel, and check runs on what the rules may still refuse).
 */
export type Unchecked<T> = { [P in keyof T]?: unknown };
/** What supplies an item's write-only values to its outputs: the inputs, or the old outputs. */
export type Prior<K extends Kind> = Inputs<K> | Partial<Outputs<K>>;

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

/** A record of inputs, outputs or bodies, read field by field. */
export type Rec = Record<string, unknown>;

/**
 * `v`, a record built field by field from definition `_d` (outputs by ./facts.ts, read-back
 * inputs by ./outputs.ts), as the type derived from that definition (api/kinds/derive.ts): the
 * one place where the runtime walk over a definition's fields meets the type-level one, which
 * TypeScript cannot relate.
 */
export function derivedFrom<T extends object>(_d: KindDefinition, v: Rec): T {
  return v as T;
}

/**
 * What makes one kind: its collection, its fields and the mapping between inputs, wire and
 * outputs. Keyed by kind `K`, whose definition gives the hooks' types: inputs `Inputs<K>` once
 * checked (create, update, adopt), `Unchecked` ones in check and diff, items `Item<K>`.
 */
export interface KindSpec<K extends Kind> {
  collection: K;
  /** "group", "identity", ... for messages. */
  label: string;
  /** The input naming the parent (`parentUid` or `groupUid`). */
  parentField: string;
  /** Every declared input except adoptUid. */
  fields: Record<string, FieldSpec>;
  /** The create body (strict, derived from the definition), run by check: built on its first call. */
  createSchema: () => z.ZodType;
  /**
   * Dotted paths of required inputs the API never returns (`oidc.clientSecret`): a resource read
   * by an import has none, so check accepts them missing unless the resource is being created.
   */
  writeOnlyInputs?: string[];
  /**
   * True when write-only input `name`, which state lacks (an imported resource), is nonetheless
   * confirmed by the live values in `olds` (an invite's ttl by its expiration less its creation).
   */
  liveConfirms?(name: string, olds: Unchecked<Outputs<K>>, news: Unchecked<Inputs<K>>): boolean;
  /** Extra checks on inputs (e.g. an invite's expiration in the future when creating). */
  validate?(inputs: Unchecked<Inputs<K>>, creating: boolean, olds: Unchecked<Outputs<K>>): Issue[];
  /** The create body from inputs, by wire name (check builds it from unchecked inputs to run `createSchema`). */
  createBody(inputs: Unchecked<Inputs<K>>): Rec;
  /** The update body for `mask` (wire paths): the new values of the fields the mask touches. */
  updateBody?(inputs: Inputs<K>, mask: string[]): Rec;
  /** Outputs from an API item; `prior` (inputs or old outputs) supplies write-only values. */
  outputs(item: Item<K>, prior: Prior<K>): Outputs<K>;
  /** The parent of an item, which its uid tells (`factsOf` gives the uid's parent, or the kind's own rule). */
  parentOf(item: Pick<Item<K>, "uid">): string;
  /** Why an existing item cannot be adopted for these inputs, or undefined. */
  adoptMismatch?(item: Item<K>, inputs: Inputs<K>): string | undefined;
  /** Mask paths to send on adoption whatever the diff says (write-only values). */
  adoptAlwaysMask?(inputs: Inputs<K>): string[];
  /** Extra replaces beyond `replace` fields (an identity's kind). */
  extraReplaces?(olds: Unchecked<Outputs<K>>, news: Unchecked<Inputs<K>>): string[];
  /**
   * After a create lost its response: the resource that create made, if it exists. Returning
   * undefined means "create again". Created at or after `since` (ms), and not among `existing`
   * (what `existing` found). A request it makes that loses its response throws TransportError
   * (the caller looks again); its calls go with the operation's client and call.
   */
  recover(ctx: Operation, inputs: Inputs<K>, since: number, existing?: ReadonlySet<string>): Promise<Item<K> | undefined>;
  /**
   * For a kind whose items carry no creation time (a subscription), which `since` cannot tell
   * apart: the uids of the items like the inputs' that are there before the first create, which
   * a recovery must never take for the one it made (one List, before the create is sent).
   */
  existing?(ctx: Operation, inputs: Inputs<K>): Promise<ReadonlySet<string>>;
  /**
   * What a refused delete says the resource still holds (compared between attempts), or undefined
   * for any other error. `counted` when the API said it in a detail that shrinks as the contents
   * go; otherwise `what` is only its message, which may stay the same however much is deleted.
   */
  heldBy?(err: unknown): { what: string; counted: boolean } | undefined;
  /** A plain-words error for a failed delete, or undefined to keep the API's. */
  deleteError?(err: unknown, props: Partial<Outputs<K>> & { uid: string }): Error | undefined;
  /** A plain-words error for a failed create (a repo's deployment that exists: import it), or undefined to keep the API's. */
  createError?(err: unknown, inputs: Inputs<K>): Error | undefined;
  /** A plain-words error for a failed update, or undefined to keep the API's. */
  updateError?(err: unknown, id: string): Error | undefined;
  /** Whether a live item counts as gone (a repo's deployment with no charts, as the Terraform provider reads it). */
  gone?(item: Item<K>): boolean;
  /** Called after a successful create (groups record themselves for propagation waits). */
  created?(item: Item<K>): void;
}
