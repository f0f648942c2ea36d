package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/remote"
	"github.com/sudoku-census/sudoku-census/pipeline/store"

	"github.com/spf13/cobra"
)

// openRemote opens the remote named on the command line, or the config
// key remote.
func openRemote(ctx context.Context, e *engine.Engine, args []string, verb string) (*remote.Remote, error) {
	url := e.DefaultRemote()
	if len(args) == 1 {
		url = args[0]
	}
	if url == "" {
		return nil, usageError{fmt.Errorf("%s needs a remote, for example: census %s file:///srv/census-cache (or set the config key remote)", verb, verb)}
	}
	r, err := remote.Open(ctx, url)
	if err != nil {
		return nil, usageError{err}
	}
	return r, nil
}

func remoteArgs(verb string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 1 {
			return usageError{fmt.Errorf("%s takes one remote, for example: census %s file:///srv/census-cache", verb, verb)}
		}
		return nil
	}
}

// pushCommand is `census push [REMOTE]`.
func pushCommand(io IO, openEngine func() (*engine.Engine, error)) *cobra.Command {
	var wait bool
	cmd := &cobra.Command{
		Use:   "push [REMOTE]",
		Short: "Send a remote (file:///path or s3://bucket/prefix) the artifacts, run-cache entries and units it lacks",
		Long: `Send a remote what it lacks of data/: every artifact of the manifest and every run
cache object (objects/<sha256>), every run cache record and each stage's current record
(runs/<stage>/<fingerprint>/<sha256 of the record>.json), every finished unit
(units/<stage>/<fingerprint>/<id>). Every key names its content, so a second push sends
nothing, and a record whose files differ from another under the same fingerprint is sent
beside it, never hidden by it. Records are sent after their
objects, so an interrupted push leaves nothing that a pull takes for complete. REMOTE is
file:///absolute/path or s3://bucket/prefix (S3 options as query parameters: region,
endpoint, use_path_style, disable_https; credentials from the AWS environment); without it,
the config key remote.`,
		Example: `  census push file:///srv/census-cache
  census push 's3://my-bucket/census?region=eu-west-1'`,
		Args: remoteArgs("push"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			r, err := openRemote(cmd.Context(), e, args, "push")
			if err != nil {
				return err
			}
			defer r.Close()
			if io.Terminal {
				r.Progress = io.Stderr
			}
			t, err := r.Push(cmd.Context(), e.Root(), e.Log(), wait)
			if errors.Is(err, store.ErrLocked) {
				return err // nothing was sent: no count of files to print
			}
			fmt.Fprintf(io.Stdout, "pushed %d files, %d bytes (%d objects, %d run records, %d units); %d already on %s\n",
				t.Files(), t.Bytes, t.Objects, t.Runs, t.Units, t.Present, r.URL)
			return err
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait for a run holding data/ instead of failing")
	return cmd
}

// pullCommand is `census pull [REMOTE]`.
func pullCommand(io IO, openEngine func() (*engine.Engine, error)) *cobra.Command {
	var wait bool
	var lockFile string
	cmd := &cobra.Command{
		Use:   "pull [REMOTE]",
		Short: "Fetch from a remote what the current config needs, check every file's SHA-256, and restore the stages from it",
		Long: `Fetch from a remote what the current configuration needs, stage by stage: the run cache
record of the stage's fingerprint and the files it names, each checked against its SHA-256
before it is used (a damaged one is refused), or, for a stage the remote has no record of,
its finished units. A record is chosen by the configuration's lock, the file beside it
named .lock.json instead of .yaml (configs/default.lock.json for configs/default.yaml),
when the lock lists the stage with that fingerprint: only a record whose artifacts' SHA-256
are the lock's is taken, and every other is refused, one line each, and the pull exits 1.
Without such a lock, the records of one fingerprint must agree on every artifact, or the
pull stops with an error naming them. Then every stage found is restored into data/ as census run would
restore it from the run cache, and no stage is run: those the remote lacks are listed, for
census run to compute. With --lock FILE, fetch that lock's records and artifacts into the
run cache only (for census diff), choosing records by that lock, leaving data/ as it is.
An interrupted pull leaves
nothing that is taken for complete: each file is written under a temporary name and
renamed once checked, and records after their files.`,
		Example: `  census pull file:///srv/census-cache
  census pull file:///srv/census-cache --lock configs/default.lock.json   # for census diff`,
		Args: remoteArgs("pull"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			r, err := openRemote(cmd.Context(), e, args, "pull")
			if err != nil {
				return err
			}
			defer r.Close()
			o := engine.PullOptions{Wait: wait}
			if lockFile != "" {
				if o.Lock, err = inspect.ReadLock(lockFile); err != nil {
					return usageError{err}
				}
			}
			t, results, err := e.Pull(cmd.Context(), r, o)
			if errors.Is(err, store.ErrLocked) {
				return err
			}
			fmt.Fprintf(io.Stdout, "pulled %d files, %d bytes (%d objects, %d run records, %d units), each checked; %d already here\n",
				t.Files(), t.Bytes, t.Objects, t.Runs, t.Units, t.Present)
			restored := 0
			for _, res := range results {
				if res.Restored {
					restored++
				}
			}
			if o.Lock == nil {
				fmt.Fprintf(io.Stdout, "restored %d stages into data/\n", restored)
			}
			if len(t.Missing) > 0 {
				what := "stages census run must compute"
				if o.Lock != nil {
					what = "artifacts the remote lacks"
				}
				fmt.Fprintf(io.Stdout, "%s: %s\n", what, strings.Join(t.Missing, ", "))
			}
			for _, line := range t.Refused {
				fmt.Fprintf(io.Stderr, "census: %s\n", line)
			}
			if err == nil && len(t.Refused) > 0 {
				what := "run records"
				if len(t.Refused) == 1 {
					what = "run record"
				}
				err = fmt.Errorf("refused %d %s of the remote that disagree with the lock", len(t.Refused), what)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait for a run holding data/ instead of failing")
	cmd.Flags().StringVar(&lockFile, "lock", "", "fetch this lock's records and artifacts into the run cache (for census diff) instead")
	return cmd
}
