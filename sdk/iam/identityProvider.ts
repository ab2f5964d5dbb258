import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../../api/kinds";
import { IrvResource, type CommonArgs } from "../resource";

/** The OIDC connection of an identity provider. */
export interface OidcArgs {
  /** The issuer URL (https). */
  issuer: pulumi.Input<string>;
  clientId: pulumi.Input<string>;
  /** The client secret: write-only on the API and always stored as a secret in state. */
  clientSecret: pulumi.Input<string>;
  additionalScopes?: pulumi.Input<pulumi.Input<string>[]>;
}

/** The OIDC connection as outputs show it (`clientSecret` is the secret the program set). */
export interface Oidc {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  additionalScopes: string[];
}

/** Arguments of an identity provider. */
export interface IdentityProviderArgs extends CommonArgs {
  /** The group it lives in. Changing it replaces it. */
  groupUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** The uid of the role new users get. */
  defaultRoleUid?: pulumi.Input<string>;
  oidc: pulumi.Input<OidcArgs>;
}

/** An OIDC identity provider people sign in with. */
export class IdentityProvider extends IrvResource {
  declare public readonly groupUid: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  /** The default role's uid ("" when none). */
  declare public readonly defaultRoleUid: pulumi.Output<string>;
  /** The OIDC connection (secret as a whole, because it holds the client secret). */
  declare public readonly oidc: pulumi.Output<Oidc>;
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;
  declare public readonly adoptUid: pulumi.Output<string | undefined>;

  constructor(name: string, args: IdentityProviderArgs, opts?: pulumi.CustomResourceOptions) {
    // The base class sends `oidc` secret as a whole (its definition names a secret member).
    super("identityProviders", name, { ...args }, outputNames("identityProviders"), opts);
  }

  /** A read-only reference to the existing identity provider `uid` (its secret is not readable). */
  static get(name: string, uid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): IdentityProvider {
    return new IdentityProvider(name, {} as IdentityProviderArgs, { ...opts, id: uid });
  }
}

/**
 * The oidc input as a secret, as the class sends it: neither the inputs nor the outputs in state
 * ever hold the client secret in plaintext. A dynamic resource marks a whole value secret, so the
 * whole block is secret (the `oidc` output too, via additionalSecretOutputs); issuer and clientId
 * stay readable in the program through `apply`.
 */
export function secretClientSecret(oidc: pulumi.Input<OidcArgs>): pulumi.Input<OidcArgs> {
  return pulumi.secret(oidc) as pulumi.Input<OidcArgs>;
}
