// The quickstart in Go: two domains on an install, its cache exclusions, an account user, and a lookup
// of the install, with the generated SDK (languages/go).
//
// Run by the CLI (`runtime: go`, `pulumi up` in this folder) it is an ordinary Pulumi program. Run with a
// command (`go run . up|preview|refresh-up|destroy`) it drives the same program through the Automation
// API (an inline program: no Go language host needed): credentials and ids come from the environment
// (WPE_API_USER_ID, WPE_API_PASSWORD, WPE_API_URL, WPE_APP_HOSTING_URL, WPE_ACCOUNT_ID,
// WPE_INSTALL_ID), become stack config (the password a secret) and are removed from the environment
// the CLI and the provider see. The stack is STACK (default `dev`) of the backend in PULUMI_BACKEND_URL.
// The last line printed is the result as JSON.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-wpengine/pulumi-wpengine/languages/go/wpengine"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

const project = "wpengine-go"

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	accountID := cfg.Require("accountId")
	installID := cfg.Require("installId")
	baseDomain := cfg.Get("baseDomain")
	if baseDomain == "" {
		baseDomain = "go.example"
	}

	www, err := wpengine.NewDomain(ctx, "www", &wpengine.DomainArgs{
		InstallId:     pulumi.String(installID),
		Name:          pulumi.String("www." + baseDomain),
		Primary:       pulumi.Bool(true),
		SecureAllUrls: pulumi.Bool(true),
	})
	if err != nil {
		return err
	}
	// The apex redirects to www (by the domain's id).
	apex, err := wpengine.NewDomain(ctx, "apex", &wpengine.DomainArgs{
		InstallId:  pulumi.String(installID),
		Name:       pulumi.String(baseDomain),
		RedirectTo: www.ID().ToStringOutput(),
	})
	if err != nil {
		return err
	}
	// The whole list of the install's cache exclusions. The install already holds exclusions made by
	// hand; Adopt says to replace them (without it, create stops and names them).
	if _, err := wpengine.NewCacheExclusions(ctx, "cache", &wpengine.CacheExclusionsArgs{
		InstallId: pulumi.String(installID),
		Adopt:     pulumi.Bool(true),
		Exclusions: wpengine.CacheExclusionsExclusionsArray{
			wpengine.CacheExclusionsExclusionsArgs{
				Type:  wpengine.CacheExclusionsExclusionsType_Url_path,
				Value: pulumi.String("^/cart/"),
			},
			wpengine.CacheExclusionsExclusionsArgs{
				Type:  wpengine.CacheExclusionsExclusionsType_Query_arg,
				Value: pulumi.String("^utm_"),
			},
		},
	}); err != nil {
		return err
	}
	// An editor restricted to this install.
	editor, err := wpengine.NewAccountUser(ctx, "editor", &wpengine.AccountUserArgs{
		AccountId:  pulumi.String(accountID),
		Email:      pulumi.String("editor@" + baseDomain),
		FirstName:  pulumi.String("Erin"),
		LastName:   pulumi.String("Editor"),
		Roles:      pulumi.String("partial"),
		InstallIds: pulumi.StringArray{pulumi.String(installID)},
	})
	if err != nil {
		return err
	}
	// A lookup: the install itself.
	install := wpengine.LookupInstallOutput(ctx, wpengine.LookupInstallOutputArgs{InstallId: pulumi.String(installID)})

	ctx.Export("wwwDomainId", www.DomainId)
	ctx.Export("apexRedirectsTo", apex.RedirectTo)
	ctx.Export("txtRecord", pulumi.Map{"name": www.TxtVerificationKey, "value": www.TxtVerificationValue}) // null once verified
	ctx.Export("editorUserId", editor.UserId)
	ctx.Export("installName", install.Name())
	return nil
}

type output struct {
	Value  any  `json:"value"`
	Secret bool `json:"secret"`
}

func stack(ctx context.Context) (auto.Stack, error) {
	name := os.Getenv("STACK")
	if name == "" {
		name = "dev"
	}
	s, err := auto.UpsertStackInlineSource(ctx, name, project, program,
		auto.Project(workspace.Project{Name: project, Runtime: workspace.NewProjectRuntimeInfo("go", nil)}))
	if err != nil {
		return s, err
	}
	cfg := auto.ConfigMap{
		"accountId":         {Value: os.Getenv("WPE_ACCOUNT_ID")},
		"installId":         {Value: os.Getenv("WPE_INSTALL_ID")},
		"wpengine:username": {Value: os.Getenv("WPE_API_USER_ID")},
		"wpengine:password": {Value: os.Getenv("WPE_API_PASSWORD"), Secret: true},
	}
	for key, env := range map[string]string{"wpengine:apiUrl": "WPE_API_URL", "wpengine:appHostingUrl": "WPE_APP_HOSTING_URL"} {
		if v, ok := os.LookupEnv(env); ok {
			cfg[key] = auto.ConfigValue{Value: v}
		}
	}
	for _, env := range []string{"WPE_API_USER_ID", "WPE_API_PASSWORD", "WPE_API_URL", "WPE_APP_HOSTING_URL"} {
		os.Unsetenv(env)
	}
	return s, s.SetAllConfig(ctx, cfg)
}

func run(ctx context.Context, command string) (any, error) {
	s, err := stack(ctx)
	if err != nil {
		return nil, err
	}
	logs := os.Stderr
	switch command {
	case "up", "refresh-up":
		opts := []optup.Option{optup.ProgressStreams(logs)}
		if command == "refresh-up" {
			opts = append(opts, optup.Refresh())
		}
		up, err := s.Up(ctx, opts...)
		if err != nil {
			return nil, err
		}
		outs := map[string]output{}
		for k, v := range up.Outputs {
			outs[k] = output{Value: v.Value, Secret: v.Secret}
		}
		return map[string]any{"changes": up.Summary.ResourceChanges, "outputs": outs}, nil
	case "preview":
		p, err := s.Preview(ctx, optpreview.ProgressStreams(logs))
		if err != nil {
			return nil, err
		}
		return map[string]any{"changes": p.ChangeSummary}, nil
	case "destroy":
		d, err := s.Destroy(ctx, optdestroy.ProgressStreams(logs))
		if err != nil {
			return nil, err
		}
		if err := s.Workspace().RemoveStack(ctx, s.Name()); err != nil {
			return nil, err
		}
		return map[string]any{"changes": d.Summary.ResourceChanges}, nil
	}
	return nil, fmt.Errorf("unknown command %q: up, preview, refresh-up or destroy", command)
}

func main() {
	if len(os.Args) < 2 {
		pulumi.Run(program) // started by the CLI's Go language host
		return
	}
	result, err := run(context.Background(), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(result); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
