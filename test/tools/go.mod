module pulumi-irv/test/tools

go 1.25
