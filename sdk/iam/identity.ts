import * as pulumi from "@pulumi/pulumi";
import type { SERVICE_PRINCIPALS } from "../../api/fields";
import type { AwsIdentity, ClaimMatch, RelationshipType, StaticKeys } from "../../api/bodies";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs, type DeepInput } from "../resource";

export type { AwsIdentity, ClaimMatch, StaticKeys };

/** A platform service principal, from the same table the API checks. */
export type ServicePrincipal = (typeof SERVICE_PRINCIPALS)[number];

/** What an identity is assumed through: each member is one relationship type. */
interface Relationships {
  /** External OIDC tokens that may assume it: issuer/subject (exact, or `*Pattern` regexes), audience, claims. */
  claimMatch: DeepInput<ClaimMatch>;
  /** Tokens signed by fixed keys (a JWKS), until `expirationTime`. */
  staticKeys: DeepInput<StaticKeys>;
  /** An AWS principal: 12-digit account, ARN (or pattern), user id (or pattern). */
  awsIdentity: DeepInput<AwsIdentity>;
  /** A platform service principal, e.g. `REGISTRY_PULLER`. */
  servicePrincipal: pulumi.Input<ServicePrincipal>;
}

/** Exactly the relationship type `K`: the others cannot be given (`never`). */
type OnlyRelationship<K extends RelationshipType> = Pick<Relationships, K> & { [O in Exclude<RelationshipType, K>]?: never };

/** Arguments of an identity: exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal. */
export type IdentityArgs = CommonArgs & {
  /** The owning group's uid. Changing it replaces the identity. */
  groupUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
} & { [K in RelationshipType]: OnlyRelationship<K> }[RelationshipType];

/** An identity that workloads or services assume. Changing its relationship type replaces it. */
export class Identity extends IrvResource {
  /** The owning group's uid. */
  declare public readonly groupUid: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  /** The description ("" when none). */
  declare public readonly description: pulumi.Output<string>;
  /** The claim match, when this is an OIDC identity. */
  declare public readonly claimMatch: pulumi.Output<ClaimMatch | undefined>;
  /** The static keys, when this is a static-keys identity. */
  declare public readonly staticKeys: pulumi.Output<StaticKeys | undefined>;
  /** The AWS principal, when this is an AWS identity. */
  declare public readonly awsIdentity: pulumi.Output<AwsIdentity | undefined>;
  /** The service principal, when this is a service identity. */
  declare public readonly servicePrincipal: pulumi.Output<string | undefined>;
  /** When it was last used. */
  declare public readonly lastSeenTime: pulumi.Output<string | undefined>;
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    super("identities", name, { ...args }, outputNames("identities"), opts);
  }

  /** A read-only reference to the existing identity `uid`. */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Identity {
    return new Identity(name, {} as IdentityArgs, { ...opts, id: uid });
  }
}
