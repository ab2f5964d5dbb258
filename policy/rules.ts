/**
 * The IAM guardrails: every rule once, with its id, default enforcement level, one-line reason and
 * fix hint. The policy pack (`policy/pack.ts`, through `policy/policies.ts`) and `irv review
 * --policy` (cli/review) both evaluate these (policy/evaluate.ts) over a `World` (policy/world.ts).
 * Which fields are references, which kind each refers to and what an identity's relationship
 * types are come from the kinds' definitions (api/kinds); nothing here repeats a kind's field list.
 */
import { BUILTIN_ROLES } from "../api/capabilities";
import { isStrings } from "../api/guards";
import { RELATIONSHIP_TYPES } from "../api/kinds/identities";
import { ROOT_UID } from "../api/uid";
import { broadness, DANGEROUS_CAPABILITIES, dangerOf, dangerousConfig, https, httpsPattern, lifetimeSeconds, obj, readOnly, str } from "./checks";
import { isKnown, kindLabel, parentField, refFields, sameRef, type Rule } from "./world";

export const RULES: readonly Rule[] = [
  {
    id: "irv-workload-identity-admin-at-root",
    enforcementLevel: "mandatory",
    kinds: ["roleBindings"],
    scope: "stack",
    reason:
      "A workload identity bound at the organization's root to owner, or to a role that can delete or grant roles, can take over the whole organization if its token leaks.",
    fix: "Bind the identity in the group it works on, to a custom role with only the capabilities its job needs.",
    config: { properties: dangerousConfig },
    check(s, w, c) {
      const group = str(s.inputs[parentField(s.kind)]);
      if (group === undefined || !ROOT_UID.test(group)) return [];
      const identity = w.ref(s, refFields(s.kind, "identities")[0], "identities");
      const item = identity?.subject?.inputs ?? identity?.remote?.item;
      // An identity named by a uid that was not looked up is still a workload identity: every
      // identity takes one of the relationship types.
      if (item && !RELATIONSHIP_TYPES.some((t) => item[t] !== undefined && item[t] !== null && item[t] !== "")) return [];
      const ref = w.ref(s, refFields(s.kind, "roles")[0], "roles");
      const role = w.role(ref);
      const unknown = !role && w.unresolved(ref);
      // A guardrail that cannot judge does not pass the binding as if it had.
      if (unknown) return [`binds a workload identity at the organization's root to role ${ref!.uid}, which could not be looked up to judge it: ${unknown}`];
      const danger = dangerOf(role, isStrings(c.capabilities) ? c.capabilities : DANGEROUS_CAPABILITIES);
      return danger ? [`binds a workload identity to ${danger} at the organization's root`] : [];
    },
  },
  {
    id: "irv-claim-match-too-broad",
    enforcementLevel: "mandatory",
    kinds: ["identities"],
    scope: "resource",
    reason: "A claimMatch pattern that matches too much lets tokens of other repositories, branches or organizations assume the identity.",
    fix: "Anchor the pattern (^...$), start it with a literal prefix such as your organization, or give the exact `subject`.",
    check(s) {
      const cm = obj(s.inputs.claimMatch);
      return cm ? broadness(cm) : [];
    },
  },
  {
    id: "irv-issuer-not-https",
    enforcementLevel: "mandatory",
    kinds: ["identities", "identityProviders"],
    scope: "resource",
    reason: "Tokens from an issuer that is not https can be forged by anyone on the network path to it.",
    fix: "Use the issuer's https URL (an issuerPattern must start with a literal https://).",
    check(s) {
      const out: string[] = [];
      const blocks = s.kind === "identities" ? ["claimMatch", "staticKeys"] : ["oidc"];
      for (const b of blocks) {
        const block = obj(s.inputs[b]);
        const issuer = str(block?.issuer);
        if (issuer !== undefined && !https(issuer)) out.push(`${b}.issuer ${JSON.stringify(issuer)} is not https`);
        const ip = str(block?.issuerPattern);
        if (ip !== undefined && !httpsPattern(ip)) out.push(`${b}.issuerPattern ${JSON.stringify(ip)} does not start with https://`);
      }
      return out;
    },
  },
  {
    id: "irv-invite-owner-role",
    enforcementLevel: "mandatory",
    kinds: ["groupInvites"],
    scope: "stack",
    reason: "Whoever holds an invite code joins with its role: an owner invite hands out the group to anyone who sees the code.",
    fix: "Invite with a lesser role (viewer, a custom role) and grant more once the person has joined.",
    check(s, w) {
      const ref = w.ref(s, refFields(s.kind, "roles")[0], "roles");
      const role = w.role(ref);
      const unknown = !role && w.unresolved(ref);
      if (unknown) return [`invites with role ${ref!.uid}, which could not be looked up to judge it: ${unknown}`];
      return role?.name === "owner" && !role.declared ? ["invites with the built-in role owner"] : [];
    },
  },
  {
    id: "irv-invite-lifetime",
    enforcementLevel: "mandatory",
    kinds: ["groupInvites"],
    scope: "resource",
    reason: "A long-lived invite code stays usable long after it was meant to be used.",
    fix: "Give a shorter `ttl`.",
    config: { properties: { maxDays: { type: "integer", minimum: 1, description: "The longest an invite may live, in days.", default: 7 } } },
    check(s, _w, c) {
      const secs = lifetimeSeconds(s.inputs);
      const max = Number(c.maxDays) * 86_400;
      return secs !== undefined && secs > max ? [`lives ${Math.round((secs / 86_400) * 10) / 10} days, more than ${c.maxDays}`] : [];
    },
  },
  {
    id: "irv-invite-single-use",
    enforcementLevel: "mandatory",
    kinds: ["groupInvites"],
    scope: "resource",
    reason: "An invite that is not single-use lets everyone who sees its code join.",
    fix: "Set `singleUse: true`.",
    check(s) {
      return isKnown(s.inputs.singleUse) && s.inputs.singleUse !== true ? ["is not single-use"] : [];
    },
  },
  {
    id: "irv-identity-provider-default-role",
    enforcementLevel: "mandatory",
    kinds: ["identityProviders"],
    scope: "stack",
    reason: "Everyone who signs in through the identity provider gets its default role: one that can grant roles or delete gives that power to every user.",
    fix: "Make the default role read-only (viewer) and grant more to the people who need it.",
    config: { properties: dangerousConfig },
    check(s, w, c) {
      const ref = w.ref(s, refFields(s.kind, "roles")[0], "roles");
      const role = w.role(ref);
      const unknown = !role && w.unresolved(ref);
      if (unknown) return [`gives every user who signs in role ${ref!.uid}, which could not be looked up to judge it: ${unknown}`];
      const danger = dangerOf(role, isStrings(c.capabilities) ? c.capabilities : DANGEROUS_CAPABILITIES);
      return danger ? [`gives every user who signs in ${danger}`] : [];
    },
  },
  {
    id: "irv-binding-above-identity-group",
    enforcementLevel: "mandatory",
    kinds: ["roleBindings"],
    scope: "stack",
    reason:
      "Binding an identity in a group above its own gives it power over its own group's parents and siblings: the API allows it, and it is the path to escalation.",
    fix: "Bind the identity in its own group or below, or move the identity up to the group it must act on.",
    config: {
      properties: {
        allowReadOnly: {
          type: "boolean",
          description: "Allow such a binding when the role only lists and pulls (an auditor reading the organization).",
          default: true,
        },
      },
    },
    check(s, w, c) {
      const identityGroup = w.identityGroup(w.ref(s, refFields(s.kind, "identities")[0], "identities"));
      const bindingGroup = w.ref(s, parentField(s.kind), "groups");
      if (!identityGroup || !bindingGroup) return [];
      const chain = w.chain(identityGroup);
      if (sameRef(chain[0], bindingGroup) || !chain.slice(1).some((g) => sameRef(g, bindingGroup))) return [];
      const role = w.role(w.ref(s, refFields(s.kind, "roles")[0], "roles"));
      if (c.allowReadOnly && role?.capabilities && readOnly(role.capabilities)) return [];
      return [`binds the identity in a group above its own${role?.name ? ` (role ${role.name})` : ""}`];
    },
  },
  {
    id: "irv-role-builtin-name",
    enforcementLevel: "mandatory",
    kinds: ["roles"],
    scope: "resource",
    reason: "A custom role named like a built-in role is mistaken for it in bindings, reviews and audits.",
    fix: "Give the custom role a name of its own.",
    check(s) {
      const name = str(s.inputs.name);
      return name !== undefined && Object.hasOwn(BUILTIN_ROLES, name) ? [`is named ${JSON.stringify(name)}, like a built-in role`] : [];
    },
  },
  {
    id: "irv-missing-description",
    enforcementLevel: "advisory",
    kinds: ["identities", "roles"],
    scope: "resource",
    reason: "Without a description, nobody reviewing the organization can tell what an identity or role is for.",
    fix: "Add a `description` that says who or what uses it.",
    check(s) {
      const d = s.inputs.description;
      // Named in the message: irv review and the engine print it under the rule, not the resource.
      return isKnown(d) && (typeof d !== "string" || d.trim() === "") ? [`${kindLabel(s.kind)} "${s.name}" has no description`] : [];
    },
  },
];

/** The rule `id`, or undefined. */
export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}
