#!/usr/bin/env bats
# kdmesg v0: the classic view, input errors, exit status.

load helpers

@test "--help goes to stdout and exits 0" {
        run "$KDMESG" --help
        [ "$status" -eq 0 ]
        [[ "$output" == *"Usage:"* ]]
}
