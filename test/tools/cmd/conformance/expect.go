package main

import (
	"fmt"
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// same fails with both values when got and want differ as messages.
func same(what string, got, want proto.Message) error {
	if !proto.Equal(got, want) {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

// equal fails with both values when got != want.
func equal[T comparable](what string, got, want T) error {
	if got != want {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

// sameSet fails when got and want do not hold the same items (in any order).
func sameSet[T interface{ ~string | ~int32 }](what string, got, want []T) error {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		return fmt.Errorf("%s: got %v, want %v", what, g, w)
	}
	return nil
}

// first returns the first error among errs.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// code fails unless err is a gRPC status with code c.
func code(what string, err error, c codes.Code) error {
	if err == nil {
		return fmt.Errorf("%s: succeeded, want %v", what, c)
	}
	if got := status.Code(err); got != c {
		return fmt.Errorf("%s: %v (%v), want %v", what, got, err, c)
	}
	return nil
}

// badField fails unless err is INVALID_ARGUMENT with an ErrorInfo and a BadRequest naming a
// field that ends with field, read from grpc-status-details-bin.
func badField(what string, err error, field string) error {
	if e := code(what, err, codes.InvalidArgument); e != nil {
		return e
	}
	var info *errdetails.ErrorInfo
	var fields []string
	for _, d := range status.Convert(err).Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			info = d
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				fields = append(fields, v.GetField())
			}
		}
	}
	if info == nil || info.GetReason() != "INVALID_ARGUMENT" {
		return fmt.Errorf("%s: details %v hold no ErrorInfo with reason INVALID_ARGUMENT", what, status.Convert(err).Details())
	}
	if !slices.ContainsFunc(fields, func(f string) bool { return f == field || strings.HasSuffix(f, "."+field) }) {
		return fmt.Errorf("%s: BadRequest fields %v, want one naming %q", what, fields, field)
	}
	return nil
}

// only fails unless items is exactly the one item with uid want.
func only[T interface{ GetUid() string }](what string, items []T, want string) error {
	uids := make([]string, len(items))
	for i, x := range items {
		uids[i] = x.GetUid()
	}
	if len(uids) != 1 || uids[0] != want {
		return fmt.Errorf("%s: got %v, want [%s]", what, uids, want)
	}
	return nil
}

// mask is an update mask of proto paths.
func mask(paths ...string) *fieldmaskpb.FieldMask { return &fieldmaskpb.FieldMask{Paths: paths} }
