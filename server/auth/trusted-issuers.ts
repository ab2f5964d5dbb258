/**
 * Which issuers the organization trusts, asked by every (unauthenticated) exchange before anything
 * is verified or fetched, so its cost must not follow what owners configure:
 * - exact `issuer`s of claimMatch identities and staticKeys issuers: a map lookup;
 * - `issuerPattern`s: each distinct pattern compiled once, and together bounded at write to
 *   ISSUER_PATTERNS_MAX_INSTRUCTIONS, so matching an `iss` (at most ISSUER_MAX characters) takes
 *   a bounded number of steps whatever the number of identities; an `iss` already judged under
 *   the current identities is not matched again;
 * - staticKeys key sets: parsed once per record version (staticKeys.ts), their keys pooled per
 *   issuer and bounded at write to STATIC_KEYS_PER_ISSUER distinct keys.
 * The index is rebuilt once per change of the identities' rules (not when a sign-in or an
 * exchange moves an identity's lastSeenTime).
 */
import type { RE2JS } from "re2js";
import { invalidField } from "../errors";
import type { Collection, IdentityRecord, Store } from "../store";
import { program } from "./claim-match";
import { staticKeysOf, type StaticKey } from "./static-keys";

/** The most instructions the organization's distinct issuer patterns may compile to, together. */
export const ISSUER_PATTERNS_MAX_INSTRUCTIONS = 500;
/** The most distinct static keys the organization's identities may hold for one issuer, together. */
export const STATIC_KEYS_PER_ISSUER = 64;
/** How many `iss` verdicts are remembered per version of the identities. */
const VERDICTS_KEPT = 1024;

interface IssuerPattern {
  program: RE2JS;
  instructions: number;
}

/** The keys trusted for one static issuer (one of each), and the identities holding each key id. */
export interface StaticIssuer {
  keys: StaticKey[];
  holders: Map<string, string[]>;
}

interface Index {
  version: number;
  exact: Set<string>;
  patterns: IssuerPattern[];
  instructions: number;
  statics: Map<string, StaticIssuer>;
  /** Issuers people signed in with, other than through an identity provider (fixtures' people of a test issuer). */
  people: Set<string>;
  verdicts: Map<string, boolean>;
}

/** An issuer pattern's program and size (compiled once, by claim-match's cache). */
function issuerPattern(source: string): IssuerPattern | undefined {
  const p = program(source);
  return p ? { program: p, instructions: p.programSize() } : undefined;
}

export class TrustedIssuers {
  private index: Index | undefined;

  private identities: Collection<IdentityRecord>;

  constructor(private store: Pick<Store, "identities" | "identityRulesVersion" | "work">) {
    this.identities = store.identities;
  }

  private current(): Index {
    const version = this.store.identityRulesVersion;
    if (this.index?.version === version) return this.index;
    const exact = new Set<string>();
    const patterns = new Map<string, IssuerPattern>();
    const statics = new Map<string, StaticIssuer>();
    const people = new Set<string>();
    for (const i of this.identities.all()) {
      if (i.person?.issuer !== undefined && i.person.identityProvider === undefined) people.add(i.person.issuer);
      const cm = i.claimMatch;
      if (cm?.issuer !== undefined) exact.add(cm.issuer);
      const p = cm?.issuerPattern !== undefined && !patterns.has(cm.issuerPattern) ? issuerPattern(cm.issuerPattern) : undefined;
      if (p) patterns.set(cm!.issuerPattern!, p);
      if (i.staticKeys) {
        let s = statics.get(i.staticKeys.issuer);
        if (!s) statics.set(i.staticKeys.issuer, (s = { keys: [], holders: new Map() }));
        for (const key of staticKeysOf(i, this.store.work)) {
          const holders = s.holders.get(key.id);
          if (holders) holders.push(i.uid);
          else (s.keys.push(key), s.holders.set(key.id, [i.uid]));
        }
      }
    }
    const list = [...patterns.values()];
    const instructions = list.reduce((n, p) => n + p.instructions, 0);
    this.index = { version, exact, patterns: list, instructions, statics, people, verdicts: new Map() };
    return this.index;
  }

  /** True when some claimMatch identity trusts `iss`: its keys may be discovered. */
  discoverable(iss: string): boolean {
    const { exact, patterns, verdicts } = this.current();
    if (exact.has(iss)) return true;
    let verdict = verdicts.get(iss);
    if (verdict === undefined) {
      verdict = patterns.some((p) => {
        this.store.work.exchangePatternRuns++;
        this.store.work.exchangePatternSteps += p.instructions * iss.length;
        return p.program.matcher(iss).matches();
      });
      if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
      verdicts.set(iss, verdict);
    }
    return verdict;
  }

  /** True when a person signed in with `iss`, not through an identity provider: they may sign in again. */
  peopleIssuer(iss: string): boolean {
    return this.current().people.has(iss);
  }

  /** The static keys trusted for `iss`, with who holds each; undefined when no identity names it. */
  staticKeysFor(iss: string): StaticIssuer | undefined {
    return this.current().statics.get(iss);
  }

  /**
   * Refuses (INVALID_ARGUMENT, naming the field) an identity record about to be written that would
   * take the organization past its bounds. Its key set is parsed here, at write, once.
   */
  checkBounds(next: IdentityRecord): void {
    const others = this.identities.all().filter((i) => i.uid !== next.uid);
    // An identity whose issuer rules did not change passes, even in an organization written before these bounds.
    const old = this.identities.get(next.uid);
    const pattern = next.claimMatch?.issuerPattern;
    if (pattern !== undefined && pattern !== old?.claimMatch?.issuerPattern) {
      const sources = new Set(others.flatMap((i) => (i.claimMatch?.issuerPattern === undefined ? [] : [i.claimMatch.issuerPattern])));
      if (!sources.has(pattern)) {
        const used = [...sources].reduce((n, s) => n + (issuerPattern(s)?.instructions ?? 0), 0);
        const size = issuerPattern(pattern)?.instructions ?? 0;
        if (used + size > ISSUER_PATTERNS_MAX_INSTRUCTIONS)
          throw invalidField(
            "claimMatch.issuerPattern",
            `compiles to ${size} instructions, and the organization's other issuer patterns to ${used}: together at most ${ISSUER_PATTERNS_MAX_INSTRUCTIONS} (give exact issuers with "issuer")`,
          );
      }
    }
    const sk = next.staticKeys;
    const mine = staticKeysOf(next, this.store.work); // parsed here, at write, once for this record
    if (sk && !(sk.issuer === old?.staticKeys?.issuer && sk.issuerKeys === old.staticKeys.issuerKeys)) {
      const ids = new Set<string>();
      for (const i of others) if (i.staticKeys?.issuer === sk.issuer) for (const k of staticKeysOf(i, this.store.work)) ids.add(k.id);
      for (const k of mine) ids.add(k.id);
      if (ids.size > STATIC_KEYS_PER_ISSUER)
        throw invalidField(
          "staticKeys.issuerKeys",
          `would make ${ids.size} distinct keys for issuer ${sk.issuer} across the organization's identities: at most ${STATIC_KEYS_PER_ISSUER}`,
        );
    }
  }
}

const byStore = new WeakMap<object, TrustedIssuers>();

/** The one TrustedIssuers of a store's identities. */
export function trustedIssuers(store: Pick<Store, "identities" | "identityRulesVersion" | "work">): TrustedIssuers {
  let t = byStore.get(store);
  if (!t) byStore.set(store, (t = new TrustedIssuers(store)));
  return t;
}
