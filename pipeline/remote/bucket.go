package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// bucket is the little a remote needs of a store of keyed files: list
// them, write one whole or not at all, read one.
type bucket interface {
	// list returns every key with its size, leaving out the temporary
	// files of writes in progress (names ending in .tmp).
	list(ctx context.Context) (map[string]int64, error)
	// put writes key from r, size bytes: the key appears only when the
	// write completes, and not at all if r fails or ctx ends first.
	put(ctx context.Context, key string, r io.Reader, size int64) error
	get(ctx context.Context, key string) (io.ReadCloser, error)
}

// dirBucket is a file:// remote: a key is a file below the directory.
type dirBucket struct{ dir string }

func (b dirBucket) path(key string) string { return filepath.Join(b.dir, filepath.FromSlash(key)) }

func (b dirBucket) list(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	err := filepath.WalkDir(b.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(d.Name(), ".tmp") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(b.dir, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = info.Size()
		return nil
	})
	return out, err
}

func (b dirBucket) put(ctx context.Context, key string, r io.Reader, size int64) error {
	dst := b.path(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	// The temporary name ends in .tmp, so that list passes over it.
	tmp, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	n, err := io.Copy(tmp, ctxReader{ctx, r})
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("wrote %d bytes, want %d", n, size)
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

func (b dirBucket) get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.Open(b.path(key))
}

// ctxReader stops a copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// s3Bucket is an s3:// remote: keys below prefix in an S3 bucket.
type s3Bucket struct {
	client *minio.Client
	name   string
	prefix string // "" or ending in "/"
}

// s3Options lists the query parameters an s3:// remote takes.
const s3Options = "region, endpoint (host[:port] or http(s)://host[:port]), use_path_style=true|false, disable_https=true|false"

// openS3 opens s3://bucket/prefix?query. Credentials come from the
// environment as the AWS tools read them: AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), else the shared
// credentials file (AWS_SHARED_CREDENTIALS_FILE, AWS_PROFILE), else the
// EC2 or container role unless AWS_EC2_METADATA_DISABLED=true.
func openS3(u *url.URL) (*s3Bucket, error) {
	endpoint, secure, region, lookup := "s3.amazonaws.com", true, "", minio.BucketLookupAuto
	for key, values := range u.Query() {
		if len(values) != 1 {
			return nil, fmt.Errorf("query parameter %s is given %d times; give it once", key, len(values))
		}
		v := values[0]
		switch key {
		case "region":
			region = v
		case "endpoint":
			endpoint = v
			if e, err := url.Parse(v); err == nil && (e.Scheme == "http" || e.Scheme == "https") {
				if e.Host == "" || (e.Path != "" && e.Path != "/") || e.RawQuery != "" {
					return nil, fmt.Errorf("endpoint %q: want host[:port] or http(s)://host[:port], without a path", v)
				}
				endpoint, secure = e.Host, secure && e.Scheme == "https"
			}
		case "use_path_style", "disable_https":
			if v != "true" && v != "false" {
				return nil, fmt.Errorf("%s=%q: want true or false", key, v)
			}
			if key == "use_path_style" && v == "true" {
				lookup = minio.BucketLookupPath
			}
			if key == "disable_https" && v == "true" {
				secure = false
			}
		default:
			return nil, fmt.Errorf("unknown query parameter %q; an s3:// remote takes %s", key, s3Options)
		}
	}
	providers := []credentials.Provider{&credentials.EnvAWS{}, &credentials.FileAWSCredentials{}}
	if os.Getenv("AWS_EC2_METADATA_DISABLED") != "true" {
		providers = append(providers, &credentials.IAM{Client: &http.Client{Transport: http.DefaultTransport}})
	}
	client, err := minio.New(endpoint, &minio.Options{
		Creds: credentials.NewChainCredentials(providers), Secure: secure, Region: region, BucketLookup: lookup,
	})
	if err != nil {
		return nil, err
	}
	prefix := strings.Trim(u.Path, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &s3Bucket{client: client, name: u.Host, prefix: prefix}, nil
}

func (b *s3Bucket) list(ctx context.Context) (map[string]int64, error) {
	ctx, cancel := context.WithCancel(ctx) // ends the listing if it stops early
	defer cancel()
	out := map[string]int64{}
	for obj := range b.client.ListObjects(ctx, b.name, minio.ListObjectsOptions{Prefix: b.prefix, Recursive: true}) {
		if obj.Err != nil {
			return nil, obj.Err
		}
		key := strings.TrimPrefix(obj.Key, b.prefix)
		if key != "" && !strings.HasSuffix(key, "/") && !strings.HasSuffix(key, ".tmp") {
			out[key] = obj.Size
		}
	}
	return out, ctx.Err()
}

// put uploads in one request, or in parts that S3 joins only when the
// upload completes (minio-go aborts the upload when r fails): either way
// nothing appears under key until every byte is there.
func (b *s3Bucket) put(ctx context.Context, key string, r io.Reader, size int64) error {
	_, err := b.client.PutObject(ctx, b.name, b.prefix+key, r, size, minio.PutObjectOptions{ContentType: "application/octet-stream"})
	return err
}

func (b *s3Bucket) get(ctx context.Context, key string) (io.ReadCloser, error) {
	obj, err := b.client.GetObject(ctx, b.name, b.prefix+key, minio.GetObjectOptions{})
	if err != nil {
		return nil, err
	}
	// GetObject sends its request on the first read: ask now, so that a
	// missing key is an error here.
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		return nil, err
	}
	return obj, nil
}

// hashCheckReader reads a file and, at its end, fails unless the bytes
// hash to want: a write fed from it is then abandoned. It seeks back to
// the start (hashing anew) so that the S3 client may resend a request, but
// not once the check has failed: a changed file is not sent again.
type hashCheckReader struct {
	f      *os.File
	want   string
	h      hash.Hash
	failed bool
}

func newHashCheckReader(f *os.File, want string) *hashCheckReader {
	return &hashCheckReader{f: f, want: want, h: sha256.New()}
}

func (c *hashCheckReader) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.h.Write(p[:n])
	if errors.Is(err, io.EOF) && hex.EncodeToString(c.h.Sum(nil)) != c.want {
		c.failed = true
		return n, errChanged
	}
	return n, err
}

func (c *hashCheckReader) Seek(offset int64, whence int) (int64, error) {
	if c.failed {
		return 0, errChanged
	}
	if offset != 0 || whence != io.SeekStart {
		return 0, errors.New("hashCheckReader seeks only to its start")
	}
	c.h.Reset()
	return c.f.Seek(0, io.SeekStart)
}

var errChanged = errors.New("changed while it was sent")
