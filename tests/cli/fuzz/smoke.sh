# A few seconds of fuzzing per target, when clang and libFuzzer are
# here (make fuzz runs them for a minute each; tests/fuzz/README has the
# long runs).  The fuzzing build goes to build/fuzz of the source tree,
# made here when it is missing or out of date.  Once, in the normal run.
. "$TESTS/lib.sh"
[ "$VARIANT" = normal ] || skip "fuzzing runs once, with the normal build's run"
command -v clang >/dev/null 2>&1 || skip "no clang: the fuzz smoke needs clang with libFuzzer"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > probe.c
clang -fsanitize=fuzzer,address,undefined -o probe probe.c 2>/dev/null ||
	skip "clang has no libFuzzer here (Debian: libclang-rt-14-dev)"
top=$TESTS/..
# A make of its own, not the jobserver of a `make check' this runs under.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make -s -C "$top" FUZZ=1 BUILD=build/fuzz -j2 fuzz-build > build.log 2>&1 || {
	tail -n 20 build.log >&2
	die "the fuzzing build failed"
}
sh "$top/tests/fuzz/run.sh" -t "${FUZZ_SMOKE_SECONDS:-2}" -j 2 -o "$TMP/out" \
    "$top/build/fuzz" > run.txt 2>&1
rc=$?
cat run.txt >&2
[ $rc -eq 0 ] || die "the fuzz smoke found something (exit $rc)"
n=$(grep -c ': nothing found$' run.txt || :)
[ "$n" -ge 20 ] || die "only $n targets ran"
exit 0
