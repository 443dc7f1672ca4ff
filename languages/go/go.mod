module github.com/pulumi-wpengine/pulumi-wpengine/languages/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.274.1
