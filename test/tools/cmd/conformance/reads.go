package main

import (
	"fmt"

	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vulns "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
)

// reads: the organization's repos, one repo's tags and the advisories, listed (in pages) and
// each first one read back by uid. The server must hold some of each (its sample does).
func (s *suite) reads() {
	var repo *registry.Repo
	s.check("repos.list", func() error {
		all, _, err := pages(5, func(n int32, token string) ([]*registry.Repo, string, error) {
			res, err := s.registry.ReposService().ListRepos(s.ctx, &registry.ListReposRequest{Uidp: &common.UIDPFilter{DescendantsOf: s.org}, PageSize: n, PageToken: token})
			return res.GetRepos(), res.GetNextPageToken(), err
		})
		if err != nil {
			return err
		}
		if len(all) == 0 {
			return fmt.Errorf("no repos in the organization")
		}
		repo = all[0]
		return nil
	})
	s.check("repos.get", func() error {
		if repo == nil {
			return fmt.Errorf("no repo listed")
		}
		got, err := s.registry.ReposService().GetRepo(s.ctx, &registry.GetRepoRequest{Uid: repo.GetUid()})
		return first(err, same("get of a listed repo", got, repo))
	})
	var tag *registry.Tag
	s.check("tags.list", func() error {
		if repo == nil {
			return fmt.Errorf("no repo listed")
		}
		res, err := s.registry.TagsService().ListTags(s.ctx, &registry.ListTagsRequest{Uidp: &common.UIDPFilter{ChildrenOf: repo.GetUid()}})
		if err != nil {
			return err
		}
		if len(res.GetTags()) == 0 {
			return fmt.Errorf("no tags in repo %s", repo.GetName())
		}
		tag = res.GetTags()[0]
		return first(equal("parent of a tag's uid", parentOf(tag.GetUid()), repo.GetUid()), equal("update_time set", tag.GetUpdateTime() != nil, true))
	})
	s.check("tags.get", func() error {
		if tag == nil {
			return fmt.Errorf("no tag listed")
		}
		got, err := s.registry.TagsService().GetTag(s.ctx, &registry.GetTagRequest{Uid: tag.GetUid()})
		return first(err, same("get of a listed tag", got, tag))
	})
	var advisory *vulns.Advisory
	s.check("advisories.list", func() error {
		res, err := s.vulns.AdvisoriesService().ListAdvisories(s.ctx, &vulns.ListAdvisoriesRequest{Uidp: &common.UIDPFilter{DescendantsOf: s.org}, PageSize: 10})
		if err != nil {
			return err
		}
		if len(res.GetAdvisories()) == 0 {
			return fmt.Errorf("no advisories")
		}
		advisory = res.GetAdvisories()[0]
		return first(equal("advisories in a page of 10", len(res.GetAdvisories()), 10), equal("next_page_token set", res.GetNextPageToken() != "", true))
	})
	s.check("advisories.get", func() error {
		if advisory == nil {
			return fmt.Errorf("no advisory listed")
		}
		got, err := s.vulns.AdvisoriesService().GetAdvisory(s.ctx, &vulns.GetAdvisoryRequest{Uid: advisory.GetUid()})
		return first(err, same("get of a listed advisory", got, advisory))
	})
}
