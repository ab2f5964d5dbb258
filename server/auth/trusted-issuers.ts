/**
 * Which issuers the organization trusts, indexed once per change of the identities (the exchange
 * asks on every request, unauthenticated): the exact `issuer`s of claimMatch identities, their
 * distinct `issuerPattern`s, and staticKeys identities by issuer. The cost of one question is a
 * set lookup plus one linear-time match per distinct pattern, whatever the number of identities.
 */
import type { Collection, IdentityRecord } from "../store";
import { fullMatch } from "./claim-match";

interface Index {
  version: number;
  exact: Set<string>;
  patterns: string[];
  statics: Map<string, IdentityRecord[]>;
}

export class TrustedIssuers {
  private index: Index | undefined;

  constructor(private identities: Collection<IdentityRecord>) {}

  private current(): Index {
    const version = this.identities.version;
    if (this.index?.version === version) return this.index;
    const exact = new Set<string>();
    const patterns = new Set<string>();
    const statics = new Map<string, IdentityRecord[]>();
    for (const i of this.identities.all()) {
      if (i.claimMatch?.issuer !== undefined) exact.add(i.claimMatch.issuer);
      if (i.claimMatch?.issuerPattern !== undefined) patterns.add(i.claimMatch.issuerPattern);
      if (i.staticKeys) statics.set(i.staticKeys.issuer, [...(statics.get(i.staticKeys.issuer) ?? []), i]);
    }
    this.index = { version, exact, patterns: [...patterns], statics };
    return this.index;
  }

  /** True when some claimMatch identity trusts `iss`: its keys may be discovered. */
  discoverable(iss: string): boolean {
    const { exact, patterns } = this.current();
    return exact.has(iss) || patterns.some((p) => fullMatch(p, iss));
  }

  /** The staticKeys identities whose issuer is `iss`. */
  staticKeysFor(iss: string): readonly IdentityRecord[] {
    return this.current().statics.get(iss) ?? [];
  }
}
