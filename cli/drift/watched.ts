import type { Kind } from "../../api/kinds";

/** The kinds whose items made by hand are drift of access (`irv drift --watch`'s default). */
export const WATCHED_KINDS: readonly Kind[] = ["roleBindings", "identities", "roles", "groupInvites", "identityProviders"];
