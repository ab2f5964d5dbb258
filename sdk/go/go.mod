module github.com/pulumi-irv/pulumi-irv/sdk/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.248.0
