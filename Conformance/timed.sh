#!/bin/sh
# Runs a check and says how long it took (`check-time: …`), keeping its exit
# status: the Makefile's long steps (conformance, test-pure's tail) run their
# commands through it, so that CI's log says where a step's minutes go.
#
#   sh Conformance/timed.sh COMMAND [ARG…]
t0=$(date +%s)
"$@"
status=$?
# The program (the script, for an interpreter) and its options, not its paths.
case $(basename -- "$1") in python*|sh|bash) shift ;; esac
name=$(basename -- "$1")
shift
for arg in "$@"; do case $arg in --*) name="$name $arg" ;; esac; done
echo "check-time: $name took $(( $(date +%s) - t0 )) s (exit $status)"
exit $status
