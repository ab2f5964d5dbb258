package main

import (
	"fmt"
	"time"

	"chainguard.dev/sdk/proto/capabilities"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// jwks is a public JWKS (no private members), for a static-keys identity.
const jwks = `{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}`

// made is what the IAM checks keep for the checks after them.
type made struct {
	team, ci, role, viewer string
}

// identities: one of each relationship type, read back, listed by type, updated with a mask,
// a proto-named member and "*", and deleted (all but the claim match one, kept as m.ci).
func (s *suite) identities(m *made) {
	c := s.iam.IdentitiesService()
	expires := timestamppb.New(time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second))
	want := map[string]*iam.Identity{
		"ci": {Name: "ci-bot", Description: "GitHub Actions on main", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: "https://token.actions.githubusercontent.com"},
			Sub: &iam.Identity_ClaimMatch_Subject{Subject: "repo:acme/app:ref:refs/heads/main"},
			Aud: &iam.Identity_ClaimMatch_Audience{Audience: "irv"},
		}}},
		"signer": {Name: "signer", Relationship: &iam.Identity_StaticKeys_{StaticKeys: &iam.Identity_StaticKeys{
			Issuer: "https://keys.example.com", Subject: "signer", IssuerKeys: jwks, ExpirationTime: expires,
		}}},
		"runner": {Name: "runner", Description: "to be replaced", Relationship: &iam.Identity_AwsIdentity{AwsIdentity: &iam.Identity_AWSIdentity{
			AwsAccount: "123456789012", AwsArn: &iam.Identity_AWSIdentity_ArnPattern{ArnPattern: "^arn:aws:iam::123456789012:role/runner-.*$"},
		}}},
		"syncer": {Name: "syncer", Relationship: &iam.Identity_ServicePrincipal{ServicePrincipal: iam.ServicePrincipal_SERVICE_PRINCIPAL_CATALOG_SYNCER}},
	}
	got := map[string]*iam.Identity{}
	for _, name := range []string{"ci", "signer", "runner", "syncer"} {
		s.check("identities.create."+name, func() error {
			id, err := c.CreateIdentity(s.ctx, &iam.CreateIdentityRequest{Parent: m.team, Identity: want[name]})
			if err != nil {
				return err
			}
			read, err := c.GetIdentity(s.ctx, &iam.GetIdentityRequest{Uid: id.GetUid()})
			if err != nil {
				return err
			}
			got[name] = id
			w := proto.CloneOf(want[name])
			w.Uid, w.CreateTime, w.UpdateTime, w.LastSeenTime = id.GetUid(), id.GetCreateTime(), id.GetUpdateTime(), id.GetLastSeenTime()
			return first(equal("parent of its uid", parentOf(id.GetUid()), m.team), same("answer to create", id, w), same("get after create", read, id))
		})
	}
	m.ci = got["ci"].GetUid()
	s.check("identities.list.relationship_type", func() error {
		res, err := c.ListIdentities(s.ctx, &iam.ListIdentitiesRequest{
			Uidp: &common.UIDPFilter{DescendantsOf: m.team}, RelationshipType: iam.RelationshipType_RELATIONSHIP_TYPE_AWS_IDENTITY,
		})
		if err != nil {
			return err
		}
		return only("identities of type AWS", res.GetIdentities(), got["runner"].GetUid())
	})
	s.check("identities.list.pages", func() error {
		all, _, err := pages(1, func(n int32, token string) ([]*iam.Identity, string, error) {
			res, err := c.ListIdentities(s.ctx, &iam.ListIdentitiesRequest{Uidp: &common.UIDPFilter{ChildrenOf: m.team}, PageSize: n, PageToken: token})
			return res.GetIdentities(), res.GetNextPageToken(), err
		})
		uids := []string{}
		for _, x := range all {
			uids = append(uids, x.GetUid())
		}
		return first(err, sameSet("uids across pages of 1", uids, []string{got["ci"].GetUid(), got["signer"].GetUid(), got["runner"].GetUid(), got["syncer"].GetUid()}))
	})
	s.check("identities.update.mask", func() error {
		id, err := c.UpdateIdentity(s.ctx, &iam.UpdateIdentityRequest{
			Identity:   &iam.Identity{Uid: m.ci, Name: "not-in-the-mask", Description: "changed through a mask"},
			UpdateMask: mask("description"),
		})
		if err != nil {
			return err
		}
		return first(equal("name (outside the mask)", id.GetName(), "ci-bot"), equal("description", id.GetDescription(), "changed through a mask"),
			same("claim_match (outside the mask)", id.GetClaimMatch(), want["ci"].GetClaimMatch()))
	})
	s.check("identities.update.claim_match", func() error {
		cm := &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: "https://token.actions.githubusercontent.com"},
			Sub: &iam.Identity_ClaimMatch_SubjectPattern{SubjectPattern: "^repo:acme/app:.*$"},
		}
		id, err := c.UpdateIdentity(s.ctx, &iam.UpdateIdentityRequest{
			Identity: &iam.Identity{Uid: m.ci, Description: "not in the mask", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: cm}}, UpdateMask: mask("claim_match"),
		})
		if err != nil {
			return err
		}
		return first(same("claim_match", id.GetClaimMatch(), cm), equal("description (outside the mask)", id.GetDescription(), "changed through a mask"))
	})
	s.check("identities.update.star", func() error {
		aws := &iam.Identity_AWSIdentity{AwsAccount: "123456789012", AwsArn: &iam.Identity_AWSIdentity_Arn{Arn: "arn:aws:iam::123456789012:role/runner"}}
		id, err := c.UpdateIdentity(s.ctx, &iam.UpdateIdentityRequest{
			Identity: &iam.Identity{Uid: got["runner"].GetUid(), Name: "runner", Relationship: &iam.Identity_AwsIdentity{AwsIdentity: aws}}, UpdateMask: mask("*"),
		})
		if err != nil {
			return err
		}
		return first(same("aws_identity", id.GetAwsIdentity(), aws), equal("description (replaced by nothing)", id.GetDescription(), ""))
	})
	for _, name := range []string{"signer", "runner", "syncer"} {
		s.check("identities.delete."+name, func() error { return s.deleted(got[name].GetUid(), deleteIdentity(s)) })
	}
}

// deleter deletes one uid and gets it again.
type deleter struct {
	del func(uid string) error
	get func(uid string) error
}

// deleted deletes uid and checks that a get then answers NOT_FOUND.
func (s *suite) deleted(uid string, d deleter) error {
	if uid == "" {
		return fmt.Errorf("nothing to delete: its create failed")
	}
	if err := d.del(uid); err != nil {
		return err
	}
	return code("get after delete", d.get(uid), codes.NotFound)
}

func deleteIdentity(s *suite) deleter {
	c := s.iam.IdentitiesService()
	return deleter{
		del: func(uid string) error {
			_, err := c.DeleteIdentity(s.ctx, &iam.DeleteIdentityRequest{Uid: uid})
			return err
		},
		get: func(uid string) error { _, err := c.GetIdentity(s.ctx, &iam.GetIdentityRequest{Uid: uid}); return err },
	}
}

// roles: the built-in viewer found by name, a custom role with capabilities as enum values, read
// back, its capabilities replaced through a mask. Kept as m.role for the bindings.
func (s *suite) roles(m *made) {
	c := s.iam.RolesService()
	s.check("roles.list.builtin", func() error {
		res, err := c.ListRoles(s.ctx, &iam.ListRolesRequest{Name: "viewer"})
		if err != nil {
			return err
		}
		if len(res.GetRoles()) == 0 {
			return fmt.Errorf("no role named viewer")
		}
		m.viewer = res.GetRoles()[0].GetUid()
		return equal("viewer can list groups", hasCap(res.GetRoles()[0], capabilities.Capability_CAP_IAM_GROUPS_LIST), true)
	})
	caps := []capabilities.Capability{capabilities.Capability_CAP_IAM_GROUPS_LIST, capabilities.Capability_CAP_REPO_LIST}
	s.check("roles.create", func() error {
		r, err := c.CreateRole(s.ctx, &iam.CreateRoleRequest{Parent: m.team, Role: &iam.Role{Name: "deployer", Description: "deploys", Capabilities: caps}})
		if err != nil {
			return err
		}
		m.role = r.GetUid()
		read, err := c.GetRole(s.ctx, &iam.GetRoleRequest{Uid: r.GetUid()})
		if err != nil {
			return err
		}
		return first(equal("parent of its uid", parentOf(r.GetUid()), m.team), sameSet("capabilities", r.GetCapabilities(), caps), same("get after create", read, r))
	})
	s.check("roles.update.capabilities", func() error {
		more := []capabilities.Capability{capabilities.Capability_CAP_IAM_GROUPS_LIST, capabilities.Capability_CAP_IAM_GROUPS_CREATE, capabilities.Capability_CAP_IAM_ROLES_LIST}
		r, err := c.UpdateRole(s.ctx, &iam.UpdateRoleRequest{Role: &iam.Role{Uid: m.role, Name: "not-in-the-mask", Capabilities: more}, UpdateMask: mask("capabilities")})
		if err != nil {
			return err
		}
		return first(sameSet("capabilities", r.GetCapabilities(), more), equal("name (outside the mask)", r.GetName(), "deployer"), equal("description (outside the mask)", r.GetDescription(), "deploys"))
	})
	s.check("roles.list.children_of", func() error {
		res, err := c.ListRoles(s.ctx, &iam.ListRolesRequest{Uidp: &common.UIDPFilter{ChildrenOf: m.team}})
		if err != nil {
			return err
		}
		return only("roles in the team", res.GetRoles(), m.role)
	})
}

func hasCap(r *iam.Role, c capabilities.Capability) bool {
	for _, x := range r.GetCapabilities() {
		if x == c {
			return true
		}
	}
	return false
}

// roleBindings: the claim match identity bound to the custom role, hydrated, listed by identity,
// moved to the viewer role through the role_uid mask, deleted.
func (s *suite) roleBindings(m *made) {
	c := s.iam.RoleBindingsService()
	var uid string
	s.check("role_bindings.create", func() error {
		b, err := c.CreateRoleBinding(s.ctx, &iam.CreateRoleBindingRequest{Parent: m.team, RoleBinding: &iam.RoleBinding{IdentityUid: m.ci, RoleUid: m.role}})
		if err != nil {
			return err
		}
		uid = b.GetUid()
		read, err := c.GetRoleBinding(s.ctx, &iam.GetRoleBindingRequest{Uid: uid})
		if err != nil {
			return err
		}
		return first(equal("parent of its uid", parentOf(uid), m.team), equal("identity.uid", b.GetIdentity().GetUid(), m.ci), equal("identity.name", b.GetIdentity().GetName(), "ci-bot"),
			equal("role.uid", b.GetRole().GetUid(), m.role), equal("role.name", b.GetRole().GetName(), "deployer"), equal("group.uid", b.GetGroup().GetUid(), m.team),
			same("get after create", read, b))
	})
	s.check("role_bindings.list.identity", func() error {
		res, err := c.ListRoleBindings(s.ctx, &iam.ListRoleBindingsRequest{Uidp: &common.UIDPFilter{DescendantsOf: m.team}, Identity: m.ci})
		if err != nil {
			return err
		}
		return only("bindings of the identity", res.GetRoleBindings(), uid)
	})
	s.check("role_bindings.update.role_uid", func() error {
		b, err := c.UpdateRoleBinding(s.ctx, &iam.UpdateRoleBindingRequest{RoleBinding: &iam.RoleBinding{Uid: uid, RoleUid: m.viewer}, UpdateMask: mask("role_uid")})
		if err != nil {
			return err
		}
		return first(equal("role.uid", b.GetRole().GetUid(), m.viewer), equal("identity.uid (outside the mask)", b.GetIdentity().GetUid(), m.ci))
	})
	s.check("role_bindings.delete", func() error {
		return s.deleted(uid, deleter{
			del: func(uid string) error {
				_, err := c.DeleteRoleBinding(s.ctx, &iam.DeleteRoleBindingRequest{Uid: uid})
				return err
			},
			get: func(uid string) error {
				_, err := c.GetRoleBinding(s.ctx, &iam.GetRoleBindingRequest{Uid: uid})
				return err
			},
		})
	})
}

// identityProviders: an OIDC provider whose client secret is never returned, updated through
// dotted masks (oidc.client_id, oidc.client_secret) and default_role, deleted.
func (s *suite) identityProviders(m *made) {
	c := s.iam.IdentityProvidersService()
	var uid string
	oidc := &iam.IdentityProvider_OIDC{Issuer: "https://login.acme.example", ClientId: "irv", ClientSecret: "idp-secret-5c0e91", AdditionalScopes: []string{"email", "profile"}}
	s.check("identity_providers.create", func() error {
		p, err := c.CreateIdentityProvider(s.ctx, &iam.CreateIdentityProviderRequest{Parent: m.team, IdentityProvider: &iam.IdentityProvider{
			Name: "sso", DefaultRole: m.viewer, Configuration: &iam.IdentityProvider_Oidc{Oidc: oidc},
		}})
		if err != nil {
			return err
		}
		uid = p.GetUid()
		read, err := c.GetIdentityProvider(s.ctx, &iam.GetIdentityProviderRequest{Uid: uid})
		if err != nil {
			return err
		}
		return first(equal("parent of its uid", parentOf(uid), m.team), equal("oidc.client_secret (never returned)", p.GetOidc().GetClientSecret(), ""),
			equal("oidc.client_id", p.GetOidc().GetClientId(), "irv"), equal("default_role", p.GetDefaultRole(), m.viewer),
			sameSet("oidc.additional_scopes", p.GetOidc().GetAdditionalScopes(), oidc.AdditionalScopes), same("get after create", read, p))
	})
	s.check("identity_providers.update.oidc.client_id", func() error {
		p, err := c.UpdateIdentityProvider(s.ctx, &iam.UpdateIdentityProviderRequest{
			IdentityProvider: &iam.IdentityProvider{Uid: uid, Configuration: &iam.IdentityProvider_Oidc{Oidc: &iam.IdentityProvider_OIDC{Issuer: "https://not-in-the-mask.example", ClientId: "irv-2"}}},
			UpdateMask:       mask("oidc.client_id"),
		})
		if err != nil {
			return err
		}
		return first(equal("oidc.client_id", p.GetOidc().GetClientId(), "irv-2"), equal("oidc.issuer (outside the mask)", p.GetOidc().GetIssuer(), oidc.Issuer))
	})
	s.check("identity_providers.update.oidc.client_secret", func() error {
		p, err := c.UpdateIdentityProvider(s.ctx, &iam.UpdateIdentityProviderRequest{
			IdentityProvider: &iam.IdentityProvider{Uid: uid, Configuration: &iam.IdentityProvider_Oidc{Oidc: &iam.IdentityProvider_OIDC{ClientSecret: "rotated-9d1f"}}},
			UpdateMask:       mask("oidc.client_secret"),
		})
		if err != nil {
			return err
		}
		return first(equal("oidc.client_secret (never returned)", p.GetOidc().GetClientSecret(), ""), equal("oidc.client_id (outside the mask)", p.GetOidc().GetClientId(), "irv-2"))
	})
	s.check("identity_providers.update.default_role", func() error {
		p, err := c.UpdateIdentityProvider(s.ctx, &iam.UpdateIdentityProviderRequest{IdentityProvider: &iam.IdentityProvider{Uid: uid, Name: "not-in-the-mask", DefaultRole: m.role}, UpdateMask: mask("default_role")})
		if err != nil {
			return err
		}
		return first(equal("default_role", p.GetDefaultRole(), m.role), equal("name (outside the mask)", p.GetName(), "sso"))
	})
	s.check("identity_providers.delete", func() error {
		return s.deleted(uid, deleter{
			del: func(uid string) error {
				_, err := c.DeleteIdentityProvider(s.ctx, &iam.DeleteIdentityProviderRequest{Uid: uid})
				return err
			},
			get: func(uid string) error {
				_, err := c.GetIdentityProvider(s.ctx, &iam.GetIdentityProviderRequest{Uid: uid})
				return err
			},
		})
	})
}

// accountAssociations: the team's association with GitHub app installations by app id, one
// member replaced through its mask, deleted.
func (s *suite) accountAssociations(m *made) {
	c := s.iam.AccountAssociationsService()
	want := &iam.AccountAssociation{
		Name:   "accounts",
		Amazon: &iam.AccountAssociation_Amazon{Account: "123456789012"},
		Google: &iam.AccountAssociation_Google{ProjectId: "acme-prod", ProjectNumber: "123456789"},
		Github: &iam.AccountAssociation_GitHub{AppInstallations: map[int64]*iam.AccountAssociation_GitHubAppInstallations{
			42: {Installations: []*iam.AccountAssociation_GitHubInstallation{{InstallationId: 7, Name: "acme"}}},
		}},
	}
	s.check("account_associations.create", func() error {
		a, err := c.CreateAccountAssociation(s.ctx, &iam.CreateAccountAssociationRequest{Parent: m.team, AccountAssociation: want})
		if err != nil {
			return err
		}
		read, err := c.GetAccountAssociation(s.ctx, &iam.GetAccountAssociationRequest{Uid: m.team})
		if err != nil {
			return err
		}
		w := proto.CloneOf(want)
		w.Uid = m.team
		// The server sets the times (output only): the rest is what was sent.
		got := proto.CloneOf(a)
		got.CreateTime, got.UpdateTime = nil, nil
		return first(same("answer to create", got, w), same("get after create", read, a))
	})
	s.check("account_associations.update.google", func() error {
		google := &iam.AccountAssociation_Google{ProjectId: "acme-staging", ProjectNumber: "987654321"}
		a, err := c.UpdateAccountAssociation(s.ctx, &iam.UpdateAccountAssociationRequest{
			AccountAssociation: &iam.AccountAssociation{Uid: m.team, Google: google, Amazon: &iam.AccountAssociation_Amazon{Account: "999999999999"}}, UpdateMask: mask("google"),
		})
		if err != nil {
			return err
		}
		return first(same("google", a.GetGoogle(), google), same("amazon (outside the mask)", a.GetAmazon(), want.Amazon), same("github (outside the mask)", a.GetGithub(), want.Github))
	})
	s.check("account_associations.list", func() error {
		res, err := c.ListAccountAssociations(s.ctx, &iam.ListAccountAssociationsRequest{Uidp: &common.UIDPFilter{DescendantsOf: m.team}})
		if err != nil {
			return err
		}
		return only("associations in the team", res.GetAccountAssociations(), m.team)
	})
	s.check("account_associations.delete", func() error {
		return s.deleted(m.team, deleter{
			del: func(uid string) error {
				_, err := c.DeleteAccountAssociation(s.ctx, &iam.DeleteAccountAssociationRequest{Uid: uid})
				return err
			},
			get: func(uid string) error {
				_, err := c.GetAccountAssociation(s.ctx, &iam.GetAccountAssociationRequest{Uid: uid})
				return err
			},
		})
	})
}

// groupInvites: an invite whose ttl (required, input only) becomes its expiration_time, listed,
// deleted; one without a ttl is refused naming it.
func (s *suite) groupInvites(m *made) {
	c := s.iam.GroupInvitesService()
	var uid string
	s.check("group_invites.create", func() error {
		before := time.Now()
		inv, err := c.CreateGroupInvite(s.ctx, &iam.CreateGroupInviteRequest{Parent: m.team, GroupInvite: &iam.GroupInvite{
			RoleUid: m.viewer, Email: "new-hire@acme.example", Ttl: durationpb.New(24 * time.Hour),
		}})
		if err != nil {
			return err
		}
		uid = inv.GetUid()
		exp := inv.GetExpirationTime().AsTime()
		// The server's clock may differ from ours by a little: a day from when we asked, give or take an hour.
		if exp.Before(before.Add(23*time.Hour)) || exp.After(before.Add(25*time.Hour)) {
			return fmt.Errorf("expiration_time %v, want a day after %v", exp, before)
		}
		read, err := c.GetGroupInvite(s.ctx, &iam.GetGroupInviteRequest{Uid: uid})
		if err != nil {
			return err
		}
		return first(equal("parent of its uid", parentOf(uid), m.team), equal("code set", inv.GetCode() != "", true), equal("ttl (input only)", inv.GetTtl() == nil, true),
			equal("role_uid", read.GetRoleUid(), m.viewer), equal("email", read.GetEmail(), "new-hire@acme.example"), equal("ttl of get (input only)", read.GetTtl() == nil, true),
			equal("expiration_time of get", read.GetExpirationTime().AsTime(), exp))
	})
	s.check("group_invites.create.without_ttl", func() error {
		inv, err := c.CreateGroupInvite(s.ctx, &iam.CreateGroupInviteRequest{Parent: m.team, GroupInvite: &iam.GroupInvite{RoleUid: m.viewer}})
		if err == nil {
			// Made when it should not have been: gone again, so that the checks after this one see only theirs.
			_, _ = c.DeleteGroupInvite(s.ctx, &iam.DeleteGroupInviteRequest{Uid: inv.GetUid()})
		}
		return badField("create of an invite without a ttl", err, "ttl")
	})
	s.check("group_invites.list", func() error {
		res, err := c.ListGroupInvites(s.ctx, &iam.ListGroupInvitesRequest{Uidp: &common.UIDPFilter{DescendantsOf: m.team}})
		if err != nil {
			return err
		}
		return only("invites in the team", res.GetGroupInvites(), uid)
	})
	s.check("group_invites.delete", func() error {
		return s.deleted(uid, deleter{
			del: func(uid string) error {
				_, err := c.DeleteGroupInvite(s.ctx, &iam.DeleteGroupInviteRequest{Uid: uid})
				return err
			},
			get: func(uid string) error {
				_, err := c.GetGroupInvite(s.ctx, &iam.GetGroupInviteRequest{Uid: uid})
				return err
			},
		})
	})
}
