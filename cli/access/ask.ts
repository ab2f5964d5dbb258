/**
 * The questions `irv access` answers over an access model, with names resolved the way a user
 * types them (a uid, a name, a stack resource's logical name) and every answer carrying what
 * could not be seen rather than a guess.
 */
import { CAPABILITIES, capabilityNamed } from "../../api/capabilities";
import type { AccessModel, Grant, UnknownGrant } from "../../policy/access";
import { UsageError } from "../command";

/** How a group, role, subject or binding is shown: its name, and its uid beside it when they differ. */
export interface Named {
  key: string;
  name: string;
  uid?: string;
}

/** One grant with its parts named. */
export interface NamedGrant {
  subject: Named & { maybe?: string };
  capability?: string;
  binding: Named;
  role: Named;
  at: Named;
  inherited: boolean;
}

/** `can-i`'s answer. */
export interface CanIAnswer {
  question: "can-i";
  answer: "yes" | "no" | "unknown";
  subject: Named & { maybe?: string };
  capability: string;
  group: Named;
  grants: NamedGrant[];
  /** Bindings whose role could not be read, and lists that could not be made: why the answer may be incomplete. */
  unseen: string[];
}

/** `who-can`'s answer. */
export interface WhoCanAnswer {
  question: "who-can";
  capability: string;
  group: Named;
  grants: NamedGrant[];
  unseen: string[];
}

/** What one binding of `what` grants. */
export interface WhatEntry {
  group: Named;
  /** Groups below it, which the grant covers too. */
  below: number;
  binding: Named;
  role: Named;
  capabilities?: readonly string[];
  /** True when a binding higher up already grants all of it. */
  redundant: boolean;
}

/** `what`'s answer. */
export interface WhatAnswer {
  question: "what";
  subject: Named & { maybe?: string };
  entries: WhatEntry[];
  unseen: string[];
}

export type AccessAnswer = CanIAnswer | WhoCanAnswer | WhatAnswer;

/** An item of `map` by key or uid, else by name (one match), else a usage error naming the candidates. */
function find(m: AccessModel, kind: "group" | "subject", map: Map<string, Named>, typed: string, what: string): string {
  if (map.has(typed)) return typed;
  // A uid, or a stack resource's logical name (the last segment of its URN).
  for (const it of map.values()) if (it.uid === typed || (it.key.startsWith("urn:") && it.key.endsWith(`::${typed}`))) return it.key;
  const named = m.named(kind, typed);
  if (named.length === 1) return named[0];
  if (named.length > 1)
    throw new UsageError(
      `${what} ${JSON.stringify(typed)} names ${named.length} ${what}s: give the uid of one of ${named.map((k) => map.get(k)?.uid ?? k).join(", ")}`,
    );
  throw new UsageError(`${what} ${JSON.stringify(typed)} is neither a uid nor the name of ${what === "identity" ? "an" : "a"} ${what} seen here`);
}

/** A capability as typed (its name, or the API's enum name `CAP_...`), checked against the catalogue. */
export function capabilityOf(typed: string): string {
  const c = capabilityNamed(typed);
  if (c) return c;
  const near = CAPABILITIES.filter((c) => c.split(".")[0] === typed.split(".")[0]);
  throw new UsageError(`capability ${JSON.stringify(typed)} is not one the platform knows${near.length ? ` (${near.join(", ")})` : ""}`);
}

export class Asker {
  constructor(
    readonly model: AccessModel,
    /** Sentences on what could not be seen for a question about `groups` (the chain asked about). */
    private readonly unseenFor: (groups: Named[]) => Promise<string[]> = async () => [],
  ) {}

  named(kind: "group" | "role" | "subject" | "binding", key: string): Named & { maybe?: string } {
    const m = this.model;
    const it = kind === "group" ? m.groups.get(key) : kind === "role" ? m.roles.get(key) : kind === "subject" ? m.subjects.get(key) : m.bindings.get(key);
    const out: Named & { maybe?: string } = { key, name: it?.name ?? key, uid: it?.uid };
    if (kind === "subject" && m.subjects.get(key)?.maybe) out.maybe = m.subjects.get(key)!.maybe;
    return out;
  }

  private grant(g: Grant | UnknownGrant): NamedGrant {
    return {
      subject: this.named("subject", g.subject),
      ...("capability" in g ? { capability: g.capability } : {}),
      binding: this.named("binding", g.binding),
      role: this.named("role", g.role),
      at: this.named("group", g.at),
      inherited: "inherited" in g ? g.inherited : false,
    };
  }

  private unknownSentence(u: UnknownGrant): string {
    const n = this.grant(u);
    return `binding ${n.binding.name} gives ${n.subject.name} role ${n.role.name} on ${n.at.name}, whose capabilities could not be read`;
  }

  private chain(group: string): Named[] {
    return this.model.ancestors(group).map((g) => this.named("group", g));
  }

  group(typed: string): string {
    return find(this.model, "group", this.model.groups as Map<string, Named>, typed, "group");
  }

  subject(typed: string): string {
    return find(this.model, "subject", this.model.subjects as Map<string, Named>, typed, "identity");
  }

  async canI(identity: string, capability: string, group: string): Promise<CanIAnswer> {
    const s = this.subject(identity);
    const c = capabilityOf(capability);
    const g = this.group(group);
    const r = this.model.canI(s, c, g);
    const unseen = [...r.unknown.map((u) => this.unknownSentence(u)), ...(r.answer === "yes" ? [] : await this.unseenFor(this.chain(g)))];
    const answer = r.answer === "no" && unseen.length ? "unknown" : r.answer;
    return {
      question: "can-i",
      answer,
      subject: this.named("subject", s),
      capability: c,
      group: this.named("group", g),
      grants: r.grants.map((x) => this.grant(x)),
      unseen,
    };
  }

  async whoCan(capability: string, group: string): Promise<WhoCanAnswer> {
    const c = capabilityOf(capability);
    const g = this.group(group);
    const r = this.model.whoCan(c, g);
    const unseen = [...r.unknown.map((u) => this.unknownSentence(u)), ...(await this.unseenFor(this.chain(g)))];
    const grants = r.grants.map((x) => this.grant(x)).sort((a, b) => a.subject.name.localeCompare(b.subject.name) || a.at.name.localeCompare(b.at.name));
    return { question: "who-can", capability: c, group: this.named("group", g), grants, unseen };
  }

  async what(identity: string): Promise<WhatAnswer> {
    const s = this.subject(identity);
    const entries = this.model.what(s).map((h) => ({
      group: this.named("group", h.group),
      below: this.model.subtreeSize(h.group) - 1,
      binding: this.named("binding", h.binding),
      role: this.named("role", h.role),
      capabilities: h.capabilities,
      redundant: h.redundant,
    }));
    const sub = this.model.subjects.get(s);
    // The organization's root: its bindings lists say whether any binding could have been missed.
    const home = sub?.uid?.split("/")[0];
    const unseen = [...this.model.unknownOf(s).map((u) => this.unknownSentence(u)), ...(home ? await this.unseenFor([this.named("group", home)]) : [])];
    return { question: "what", subject: this.named("subject", s), entries, unseen };
  }
}
