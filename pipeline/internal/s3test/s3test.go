// Package s3test starts an S3-compatible server for tests of the s3://
// remotes: gofakes3, an implementation of the S3 REST protocol (path-style
// requests, ListObjectsV2, multipart uploads, aws-chunked bodies) kept in
// memory, behind an HTTP listener on the loopback address. The minio-go
// client of pipeline/remote talks to it exactly as to S3.
package s3test

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Server is a running S3-compatible server with one bucket.
type Server struct {
	Endpoint string // http://127.0.0.1:port
	Bucket   string
	backend  *s3mem.Backend
}

// Start starts a server with an empty bucket, stopped when the test ends,
// and sets the AWS environment the remote's credentials come from: static
// test credentials, no shared config files, no instance metadata lookups.
func Start(t testing.TB, bucket string) *Server {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "census-test", "AWS_SECRET_ACCESS_KEY": "census-test-secret",
		"AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "",
	} {
		t.Setenv(k, v)
	}
	return &Server{Endpoint: srv.URL, Bucket: bucket, backend: backend}
}

// URL is the remote s3://bucket/prefix on this server.
func (s *Server) URL(prefix string) string {
	q := url.Values{"endpoint": {s.Endpoint}, "region": {"us-east-1"}, "use_path_style": {"true"}, "disable_https": {"true"}}
	return "s3://" + s.Bucket + "/" + prefix + "?" + q.Encode()
}
