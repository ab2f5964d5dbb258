package main

import (
	"fmt"
	"slices"
	"strings"

	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	"google.golang.org/grpc/codes"
)

// parentOf is the uid of the group a uid lies in.
func parentOf(uid string) string { return uid[:max(strings.LastIndex(uid, "/"), 0)] }

// pages follows next_page_token with pages of size n and returns every item and the page count.
func pages[T any](n int32, list func(size int32, token string) ([]T, string, error)) ([]T, int, error) {
	var all []T
	token := ""
	for count := 1; ; count++ {
		items, next, err := list(n, token)
		if err != nil {
			return nil, count, err
		}
		if int32(len(items)) > n {
			return nil, count, fmt.Errorf("page %d holds %d items, more than page_size %d", count, len(items), n)
		}
		all = append(all, items...)
		if next == "" {
			return all, count, nil
		}
		if count > 100 {
			return nil, count, fmt.Errorf("more than 100 pages of %d", n)
		}
		token = next
	}
}

func reversed(xs []string) []string {
	r := slices.Clone(xs)
	slices.Reverse(r)
	return r
}

func groupNames(gs []*iam.Group) []string {
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.GetName()
	}
	return names
}

// errors: the error model, as the SDK's callers see it (codes and typed details).
func (s *suite) errors() {
	g := s.iam.GroupsService()
	s.check("errors.not_found", func() error {
		_, err := g.GetGroup(s.ctx, &iam.GetGroupRequest{Uid: s.org + "/0123456789abcdef"})
		return code("get of a uid that does not exist", err, codes.NotFound)
	})
	s.check("errors.invalid_argument", func() error {
		_, err := g.CreateGroup(s.ctx, &iam.CreateGroupRequest{Parent: s.org, Group: &iam.Group{Name: ""}})
		return badField("create of a group without a name", err, "name")
	})
	s.check("errors.unauthenticated", func() error {
		conn, err := dial(s.ctx, s.api, "")
		if err != nil {
			return err
		}
		defer conn.Close()
		_, err = iam.NewGroupsServiceClient(conn).ListGroups(s.ctx, &iam.ListGroupsRequest{})
		return code("list without a token", err, codes.Unauthenticated)
	})
}

// groups: a team under the organization with five children, listed every way, updated with a
// mask and with "*", one child deleted. Returns the team's uid ("" when it could not be made).
func (s *suite) groups() string {
	g := s.iam.GroupsService()
	var team *iam.Group
	if !s.check("groups.create", func() (err error) {
		team, err = g.CreateGroup(s.ctx, &iam.CreateGroupRequest{Parent: s.org, Group: &iam.Group{Name: "conformance", Description: "made by the sdk"}})
		if err != nil {
			return err
		}
		return first(equal("parent of its uid", parentOf(team.GetUid()), s.org), equal("name", team.GetName(), "conformance"),
			equal("description", team.GetDescription(), "made by the sdk"), equal("create_time set", team.GetCreateTime() != nil, true))
	}) {
		return ""
	}
	s.check("groups.get", func() error {
		got, err := g.GetGroup(s.ctx, &iam.GetGroupRequest{Uid: team.GetUid()})
		if err != nil {
			return err
		}
		return same("get after create", got, team)
	})
	names := []string{"page-4", "oncall", "page-2", "page-1", "page-3"}
	children := map[string]*iam.Group{}
	if !s.check("groups.create.children", func() error {
		for _, n := range names {
			c, err := g.CreateGroup(s.ctx, &iam.CreateGroupRequest{Parent: team.GetUid(), Group: &iam.Group{Name: n, Description: "to be replaced"}})
			if err != nil {
				return fmt.Errorf("%s: %w", n, err)
			}
			if err := equal(n+": parent of its uid", parentOf(c.GetUid()), team.GetUid()); err != nil {
				return err
			}
			children[n] = c
		}
		return nil
	}) {
		return team.GetUid()
	}
	sorted := slices.Sorted(slices.Values(names))
	under := &common.UIDPFilter{ChildrenOf: team.GetUid()}
	s.check("groups.list.children_of", func() error {
		res, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: under})
		if err != nil {
			return err
		}
		return first(sameSet("names", groupNames(res.GetGroups()), names), equal("total_count", res.GetTotalCount(), int64(len(names))))
	})
	s.check("groups.list.descendants_of", func() error {
		res, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: &common.UIDPFilter{DescendantsOf: team.GetUid()}})
		if err != nil {
			return err
		}
		got := groupNames(slices.DeleteFunc(res.GetGroups(), func(x *iam.Group) bool { return x.GetUid() == team.GetUid() }))
		return sameSet("names below the team", got, names)
	})
	s.check("groups.list.name", func() error {
		res, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: &common.UIDPFilter{DescendantsOf: s.org}, Name: "page-3"})
		if err != nil {
			return err
		}
		return only("groups named page-3", res.GetGroups(), children["page-3"].GetUid())
	})
	s.check("groups.list.order_by", func() error {
		asc, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: under, OrderBy: "name"})
		if err != nil {
			return err
		}
		desc, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: under, OrderBy: "name desc"})
		if err != nil {
			return err
		}
		return first(equal("order_by name", fmt.Sprint(groupNames(asc.GetGroups())), fmt.Sprint(sorted)),
			equal("order_by name desc", fmt.Sprint(groupNames(desc.GetGroups())), fmt.Sprint(reversed(sorted))))
	})
	s.check("groups.list.pages", func() error {
		all, count, err := pages(2, func(n int32, token string) ([]*iam.Group, string, error) {
			res, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: under, OrderBy: "name", PageSize: n, PageToken: token})
			return res.GetGroups(), res.GetNextPageToken(), err
		})
		if err != nil {
			return err
		}
		return first(equal("pages of 2", count, 3), equal("names across pages", fmt.Sprint(groupNames(all)), fmt.Sprint(sorted)))
	})
	s.check("groups.list.skip", func() error {
		res, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: under, OrderBy: "name", PageSize: 2, Skip: 2})
		if err != nil {
			return err
		}
		return first(equal("skipped", res.GetSkipped(), int32(2)), equal("names after skipping 2", fmt.Sprint(groupNames(res.GetGroups())), fmt.Sprint(sorted[2:4])))
	})
	s.check("groups.update.mask", func() error {
		got, err := g.UpdateGroup(s.ctx, &iam.UpdateGroupRequest{
			Group:      &iam.Group{Uid: team.GetUid(), Name: "not-in-the-mask", Description: "changed through a mask"},
			UpdateMask: mask("description"),
		})
		if err != nil {
			return err
		}
		read, err := g.GetGroup(s.ctx, &iam.GetGroupRequest{Uid: team.GetUid()})
		if err != nil {
			return err
		}
		return first(equal("name (outside the mask)", got.GetName(), "conformance"), equal("description", got.GetDescription(), "changed through a mask"), same("get after update", read, got))
	})
	s.check("groups.update.star", func() error {
		got, err := g.UpdateGroup(s.ctx, &iam.UpdateGroupRequest{Group: &iam.Group{Uid: children["oncall"].GetUid(), Name: "on-call"}, UpdateMask: mask("*")})
		if err != nil {
			return err
		}
		return first(equal("name", got.GetName(), "on-call"), equal("description (replaced by nothing)", got.GetDescription(), ""))
	})
	s.check("groups.delete", func() error {
		uid := children["page-4"].GetUid()
		if _, err := g.DeleteGroup(s.ctx, &iam.DeleteGroupRequest{Uid: uid}); err != nil {
			return err
		}
		_, err := g.GetGroup(s.ctx, &iam.GetGroupRequest{Uid: uid})
		return code("get after delete", err, codes.NotFound)
	})
	return team.GetUid()
}

// deleteTree deletes the groups below uid, deepest first, then uid itself.
func (s *suite) deleteTree(uid string) error {
	g := s.iam.GroupsService()
	res, err := g.ListGroups(s.ctx, &iam.ListGroupsRequest{Uidp: &common.UIDPFilter{DescendantsOf: uid}})
	if err != nil {
		return err
	}
	uids := []string{uid}
	for _, x := range res.GetGroups() {
		if x.GetUid() != uid {
			uids = append(uids, x.GetUid())
		}
	}
	slices.SortFunc(uids, func(a, b string) int { return len(b) - len(a) })
	for _, u := range uids {
		if _, err := g.DeleteGroup(s.ctx, &iam.DeleteGroupRequest{Uid: u}); err != nil {
			return fmt.Errorf("delete %s: %w", u, err)
		}
	}
	_, err = g.GetGroup(s.ctx, &iam.GetGroupRequest{Uid: uid})
	return code("get after delete", err, codes.NotFound)
}
