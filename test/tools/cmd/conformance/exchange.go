package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	iamv1 "chainguard.dev/sdk/proto/platform/iam/v1"
	"chainguard.dev/sdk/sts"
	"google.golang.org/grpc/codes"
)

// claims reads iss and sub from a JWT's payload (unverified: the server verifies it).
func claims(jwt string) (iss, sub string, err error) {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return "", "", fmt.Errorf("-id-token is not a JWT")
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", "", fmt.Errorf("-id-token payload: %w", err)
	}
	var c struct{ Iss, Sub string }
	if err := json.Unmarshal(raw, &c); err != nil {
		return "", "", fmt.Errorf("-id-token payload: %w", err)
	}
	return c.Iss, c.Sub, nil
}

// exchange: an identity whose claim match is the id token's issuer and subject, bound to the
// viewer role on the team, assumed through the SDK's exchanger over gRPC (sts.New) and over
// HTTP/1 (WithHTTP1Downgrade: a form POST to {issuer}/sts/exchange); the token it gives reads the
// team and may not create in it; the platform's lookups find it; capabilities asked narrow the
// token; a token that is no JWT is refused.
func (s *suite) exchange(m *made) {
	var identity, binding string
	if !s.check("exchange.setup", func() error {
		iss, sub, err := claims(s.idToken)
		if err != nil {
			return err
		}
		id, err := s.iam.IdentitiesService().CreateIdentity(s.ctx, &iam.CreateIdentityRequest{Parent: m.team, Identity: &iam.Identity{
			Name: "exchanger", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
				Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: iss}, Sub: &iam.Identity_ClaimMatch_Subject{Subject: sub},
			}},
		}})
		if err != nil {
			return err
		}
		identity = id.GetUid()
		b, err := s.iam.RoleBindingsService().CreateRoleBinding(s.ctx, &iam.CreateRoleBindingRequest{Parent: m.team, RoleBinding: &iam.RoleBinding{IdentityUid: identity, RoleUid: m.viewer}})
		binding = b.GetUid()
		return err
	}) {
		return
	}
	// The token is valid for the API: it reads the team as a viewer, and may not create in it.
	works := func(token string) error {
		conn, err := dial(s.ctx, s.api, "Bearer "+token)
		if err != nil {
			return err
		}
		defer conn.Close()
		g := iam.NewGroupsServiceClient(conn)
		if _, err := g.GetGroup(s.ctx, &iam.GetGroupRequest{Uid: m.team}); err != nil {
			return fmt.Errorf("get of the team with the exchanged token: %w", err)
		}
		_, err = g.CreateGroup(s.ctx, &iam.CreateGroupRequest{Parent: m.team, Group: &iam.Group{Name: "not-allowed"}})
		return code("create with a viewer's token", err, codes.PermissionDenied)
	}
	s.check("exchange.grpc", func() error {
		pair, err := sts.New(s.api, s.api, sts.WithIdentity(identity)).Exchange(s.ctx, s.idToken)
		if err != nil {
			return err
		}
		return works(pair.AccessToken)
	})
	s.check("exchange.http1", func() error {
		pair, err := sts.ExchangePair(s.ctx, s.auth, s.api, s.idToken, sts.WithIdentity(identity), sts.WithHTTP1Downgrade())
		if err != nil {
			return err
		}
		return works(pair.AccessToken)
	})
	// The platform's lookups, through its own clients: v2beta1 LookupIdentity and v1 Lookup find
	// the identity by the issuer and subject its claim match names.
	s.check("exchange.lookup", func() error {
		iss, sub, err := claims(s.idToken)
		if err != nil {
			return err
		}
		found, err := s.iam.IdentitiesService().LookupIdentity(s.ctx, &iam.LookupIdentityRequest{Issuer: iss, Subject: sub})
		if err != nil {
			return fmt.Errorf("LookupIdentity: %w", err)
		}
		if found.GetUid() != identity {
			return fmt.Errorf("LookupIdentity answered %q, want %q", found.GetUid(), identity)
		}
		v1, err := iamv1.NewIdentitiesClient(s.conn).Lookup(s.ctx, &iamv1.LookupRequest{Issuer: iss, Subject: sub})
		if err != nil {
			return fmt.Errorf("v1 Lookup: %w", err)
		}
		if v1.GetId() != identity || v1.GetClaimMatch().GetSubject() != sub {
			return fmt.Errorf("v1 Lookup answered %q (subject %q), want %q", v1.GetId(), v1.GetClaimMatch().GetSubject(), identity)
		}
		_, err = iamv1.NewIdentitiesClient(s.conn).Lookup(s.ctx, &iamv1.LookupRequest{Issuer: iss, Subject: sub + ":nobody"})
		return code("v1 Lookup of nobody", err, codes.NotFound)
	})
	// The exchanger's capabilities narrow the token, over gRPC and as HTTP/1 form fields: one for
	// repo.list alone may not read the team.
	s.check("exchange.capabilities", func() error {
		for _, opts := range [][]sts.ExchangerOption{{}, {sts.WithHTTP1Downgrade()}} {
			opts = append(opts, sts.WithIdentity(identity), sts.WithCapabilities("repo.list"), sts.WithScope(m.team))
			pair, err := sts.ExchangePair(s.ctx, s.auth, s.api, s.idToken, opts...)
			if err != nil {
				return err
			}
			conn, err := dial(s.ctx, s.api, "Bearer "+pair.AccessToken)
			if err != nil {
				return err
			}
			_, err = iam.NewGroupsServiceClient(conn).GetGroup(s.ctx, &iam.GetGroupRequest{Uid: m.team})
			conn.Close()
			if err := code("get of the team with a token for repo.list alone", err, codes.PermissionDenied); err != nil {
				return err
			}
		}
		return nil
	})
	s.check("exchange.refused", func() error {
		_, err := sts.New(s.api, s.api, sts.WithIdentity(identity)).Exchange(s.ctx, "not-a-jwt")
		return code("exchange of a token that is no JWT", err, codes.Unauthenticated)
	})
	s.check("exchange.cleanup", func() error {
		if _, err := s.iam.RoleBindingsService().DeleteRoleBinding(s.ctx, &iam.DeleteRoleBindingRequest{Uid: binding}); err != nil {
			return err
		}
		_, err := s.iam.IdentitiesService().DeleteIdentity(s.ctx, &iam.DeleteIdentityRequest{Uid: identity})
		return err
	})
}
